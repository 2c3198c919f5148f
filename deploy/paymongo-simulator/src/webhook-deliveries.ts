import { postDelivery, type DeliveryOutcome } from "@bayad/simulator-kit";
import { notFound, PaymongoSimulatorError } from "./api-error.js";
import { unixNow } from "./ids.js";
import { webhooksFor } from "./resources/webhooks.js";
import { paymongoSignature } from "./signature.js";
import type { Simulation } from "./simulation.js";
import type { StoredEvent, StoredObject } from "./state.js";

export interface DeliveryAttempt {
  eventId: string;
  type: string;
  url: string;
  /** 1 for the first try, 2 for the first retry, … */
  attempt: number;
  status?: number;
  error?: string;
  at: Date;
}

export const DELIVERY_MODES = ["deliver", "drop", "delay", "duplicate", "reorder"] as const;
export type DeliveryMode = { mode: (typeof DELIVERY_MODES)[number]; delayMs?: number };

export interface DeliveryOptions {
  retrySchedule: number[];
  timeoutMs: number;
  disableAfterExhaustedEvents: number;
  log: (line: string) => void;
}

/**
 * PayMongo retries 12 times with exponential backoff over about 136.5 min ([O]); the intervals
 * are unpublished. 2, 4, 8 … 4096 s add up to exactly 136.5 min, so the simulator uses those.
 */
export const PAYMONGO_RETRY_SCHEDULE = Array.from({ length: 12 }, (_, i) => 2 ** (i + 1) * 1000);

const DEFAULT_DELAY_MS = 1000;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** One event on its way to one webhook, through its retries. */
interface Job {
  event: StoredEvent;
  webhook: StoredObject;
  attempts: number;
  firstAttempt: Deferred;
  settled: Deferred;
  inFlight?: Promise<void>;
  timer?: NodeJS.Timeout;
}

/**
 * Sends every event to the webhooks that asked for it, signed, with retries, and disables a
 * webhook after `disableAfterExhaustedEvents` events in a row ran out of retries. The mode decides
 * what happens to each new event's deliveries (dropped, delayed, sent twice, held back and sent
 * newest-first); retries and resends are never affected by it.
 */
export class WebhookDeliveries {
  private mode: Required<DeliveryMode> = { mode: "deliver", delayMs: DEFAULT_DELAY_MS };
  private readonly jobs = new Set<Job>();
  private held: Job[] = [];
  private readonly attempts: DeliveryAttempt[] = [];
  private readonly shutdown = new AbortController();

  constructor(
    private readonly sim: Simulation,
    private readonly options: DeliveryOptions,
  ) {
    sim.state.onEvent((event) => this.accept(event));
  }

  setMode(mode: DeliveryMode): void {
    if (!DELIVERY_MODES.includes(mode?.mode)) {
      throw new PaymongoSimulatorError(400, [
        { code: "parameter_invalid", detail: `mode must be one of ${DELIVERY_MODES.join(", ")}.`, source: { pointer: "mode", attribute: "mode" } },
      ]);
    }
    const delayMs = mode.delayMs ?? DEFAULT_DELAY_MS;
    if (!Number.isInteger(delayMs) || delayMs < 0) {
      throw new PaymongoSimulatorError(400, [
        { code: "parameter_invalid", detail: "delayMs must be a non-negative integer.", source: { pointer: "delayMs", attribute: "delayMs" } },
      ]);
    }
    this.mode = { mode: mode.mode, delayMs };
    // Leaving reorder mode lets the held deliveries go, so none is stranded.
    if (mode.mode !== "reorder") void this.releaseHeld();
  }

  currentMode(): Required<DeliveryMode> {
    return { ...this.mode };
  }

  records(): DeliveryAttempt[] {
    return this.attempts.map((a) => ({ ...a, at: new Date(a.at) }));
  }

  private accept(event: StoredEvent): void {
    for (const webhook of webhooksFor(this.sim, event.owner, event.type)) {
      switch (this.mode.mode) {
        case "drop":
          break;
        case "deliver":
          this.start(this.newJob(event, webhook));
          break;
        case "delay": {
          const job = this.newJob(event, webhook);
          job.timer = setTimeout(() => this.start(job), this.mode.delayMs);
          break;
        }
        case "duplicate": {
          const first = this.newJob(event, webhook);
          const second = this.newJob(event, webhook);
          this.start(first);
          void first.firstAttempt.promise.then(() => this.start(second));
          break;
        }
        case "reorder":
          this.held.push(this.newJob(event, webhook));
          break;
      }
    }
  }

  private newJob(event: StoredEvent, webhook: StoredObject): Job {
    const job: Job = { event, webhook, attempts: 0, firstAttempt: deferred(), settled: deferred() };
    this.jobs.add(job);
    return job;
  }

  private async releaseHeld(): Promise<void> {
    const newestFirst = this.held.reverse();
    this.held = [];
    for (const job of newestFirst) {
      this.start(job);
      await job.firstAttempt.promise;
    }
  }

  /**
   * Resolves when every delivery queued so far has been tried (held ones are sent first, newest
   * first) and no attempt is in flight; with `untilSettled`, when each has succeeded or run out of
   * retries (with the default schedule that can take 136 min: tests pass a short one).
   */
  async flush(options: { untilSettled?: boolean } = {}): Promise<void> {
    await this.releaseHeld();
    await Promise.all(
      [...this.jobs].map(async (job) => {
        await job.firstAttempt.promise;
        await (options.untilSettled ? job.settled.promise : job.inFlight);
      }),
    );
  }

  /** Sends the event again to every webhook that wants it now, as the dashboard's Resend does. */
  async resend(eventId: string): Promise<void> {
    const event = this.sim.state.events.find((e) => e.id === eventId);
    if (!event) throw notFound(eventId);
    const jobs = webhooksFor(this.sim, event.owner, event.type).map((webhook) => this.newJob(event, webhook));
    for (const job of jobs) this.start(job);
    await Promise.all(jobs.map((job) => job.firstAttempt.promise));
  }

  close(): void {
    this.shutdown.abort();
    for (const job of this.held) this.finish(job);
    this.held = [];
    for (const job of this.jobs) {
      clearTimeout(job.timer);
      if (!job.inFlight) this.finish(job);
    }
  }

  private start(job: Job): void {
    job.timer = undefined;
    job.inFlight = this.attempt(job);
  }

  private finish(job: Job): void {
    this.jobs.delete(job);
    job.firstAttempt.resolve();
    job.settled.resolve();
  }

  private async attempt(job: Job): Promise<void> {
    const { webhook, event } = job;
    // A webhook disabled meanwhile gets nothing more; nor does anyone once the simulator closes.
    if (this.shutdown.signal.aborted || webhook.attributes["status"] !== "enabled") {
      job.inFlight = undefined;
      this.finish(job);
      return;
    }
    job.attempts += 1;
    const url = webhook.attributes["url"] as string;
    const outcome = await this.post(url, event, webhook.attributes["secret_key"] as string);
    const record: DeliveryAttempt = { eventId: event.id, type: event.type, url, attempt: job.attempts, at: new Date(), ...outcome };
    this.attempts.push(record);
    this.options.log(`webhook ${event.type} ${event.id} -> ${url} (attempt ${job.attempts}): ${outcome.status ?? outcome.error}`);
    job.inFlight = undefined;
    job.firstAttempt.resolve();

    if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
      webhook.internal["exhaustedInARow"] = 0;
      this.finish(job);
      return;
    }
    if (this.shutdown.signal.aborted) {
      this.finish(job);
      return;
    }
    const wait = this.options.retrySchedule[job.attempts - 1];
    if (wait !== undefined) {
      job.timer = setTimeout(() => this.start(job), wait);
      return;
    }
    const exhausted = ((webhook.internal["exhaustedInARow"] as number | undefined) ?? 0) + 1;
    webhook.internal["exhaustedInARow"] = exhausted;
    if (exhausted >= this.options.disableAfterExhaustedEvents && webhook.attributes["status"] === "enabled") {
      this.sim.state.update(webhook, { status: "disabled", disabled_reason: "max_retries_exceeded" });
      this.options.log(`webhook ${webhook.id} disabled: ${exhausted} events in a row ran out of retries`);
    }
    this.finish(job);
  }

  private post(url: string, event: StoredEvent, secretKey: string): Promise<DeliveryOutcome> {
    return postDelivery(url, {
      headers: { "user-agent": "PayMongo-Simulator/1.0", "paymongo-signature": paymongoSignature(secretKey, event.body, event.livemode, unixNow()) },
      body: event.body,
      timeoutMs: this.options.timeoutMs,
      shutdown: this.shutdown.signal,
    });
  }
}

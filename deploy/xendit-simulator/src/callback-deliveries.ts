import { postDelivery, type DeliveryOutcome } from "@bayad/simulator-kit";
import { validationError } from "./api-error.js";
import { callbackUrlsOf, type CallbackRegistry } from "./callback-settings.js";
import type { StoredEvent } from "./state.js";

export interface DeliveryAttempt {
  eventId: string;
  event: string;
  url: string;
  /** 1 for the first try, 2 for the first retry, … */
  attempt: number;
  status?: number;
  error?: string;
  at: Date;
}

/** deliver: as it comes; drop: never sent; delay: sent `delayMs` late; duplicate: sent twice. */
export const DELIVERY_MODES = ["deliver", "drop", "delay", "duplicate"] as const;
export interface DeliveryMode {
  mode: (typeof DELIVERY_MODES)[number];
  delayMs: number;
}

/**
 * Xendit retries up to 6 times after the first attempt, at +15 min, 1 h, 3 h, 6 h, 12 h and 24 h
 * from it [O apidocs/webhook-behavior]: these are the waits between attempts.
 */
export const XENDIT_RETRY_DELAYS_MS = [15, 45, 120, 180, 360, 720].map((minutes) => minutes * 60_000);

/** The simulator's default: Xendit's schedule scaled down 60 times (15 s … 12 min), so local work sees retries. */
export const SCALED_RETRY_DELAYS_MS = XENDIT_RETRY_DELAYS_MS.map((ms) => ms / 60);

export interface DeliveryOptions {
  retryDelaysMs: number[];
  /** An attempt not answered within this is a failure; Xendit's timeout is UNCONF. */
  timeoutMs: number;
  log: (line: string) => void;
}

/**
 * Sends each event to its account's callback URLs with `x-callback-token`, retrying non-2xx
 * answers on the schedule. The mode decides what happens to each new event's first attempt;
 * retries follow whatever the mode.
 */
export class CallbackDeliveries {
  private mode: DeliveryMode = { mode: "deliver", delayMs: 1000 };
  private readonly attempts: DeliveryAttempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly shutdown = new AbortController();

  constructor(
    private readonly registry: CallbackRegistry,
    private options: DeliveryOptions,
  ) {}

  setMode(mode: { mode?: unknown; delayMs?: unknown }): DeliveryMode {
    const delayMs = mode.delayMs ?? 1000;
    if (!DELIVERY_MODES.includes(mode.mode as DeliveryMode["mode"]) || typeof delayMs !== "number" || !Number.isInteger(delayMs) || delayMs < 0) {
      throw validationError(`mode must be one of ${DELIVERY_MODES.join(", ")}, delayMs a non-negative integer.`);
    }
    this.mode = { mode: mode.mode as DeliveryMode["mode"], delayMs };
    return this.currentMode();
  }

  currentMode(): DeliveryMode {
    return { ...this.mode };
  }

  setRetryDelays(delays: unknown): number[] {
    if (!Array.isArray(delays) || !delays.every((d) => Number.isInteger(d) && (d as number) >= 0)) {
      throw validationError("retryDelaysMs must be an array of non-negative integers.");
    }
    this.options = { ...this.options, retryDelaysMs: delays as number[] };
    return [...this.options.retryDelaysMs];
  }

  records(): DeliveryAttempt[] {
    return this.attempts.map((a) => ({ ...a, at: new Date(a.at) }));
  }

  accept(event: StoredEvent): void {
    const settings = this.registry.of(event.owner);
    if (!settings) return;
    for (const url of callbackUrlsOf(settings, event.product)) {
      const send = () => this.attempt(event, url, settings.verificationToken, 1);
      switch (this.mode.mode) {
        case "drop":
          this.options.log(`callback ${event.event} ${event.id} -> ${url}: dropped by the delivery mode`);
          break;
        case "deliver":
          send();
          break;
        case "delay":
          this.later(this.mode.delayMs, send);
          break;
        case "duplicate":
          send();
          send();
          break;
      }
    }
  }

  /** Sends an event again, as the dashboard's resend does [O]. */
  resend(event: StoredEvent): void {
    const settings = this.registry.of(event.owner);
    if (!settings) return;
    for (const url of callbackUrlsOf(settings, event.product)) this.attempt(event, url, settings.verificationToken, 1);
  }

  close(): void {
    this.shutdown.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private attempt(event: StoredEvent, url: string, token: string, attempt: number): void {
    if (this.shutdown.signal.aborted) return;
    void this.post(url, event, token).then((outcome) => {
      this.attempts.push({ eventId: event.id, event: event.event, url, attempt, at: new Date(), ...outcome });
      // The token is a secret: the log names the event and the answer only.
      this.options.log(`callback ${event.event} ${event.id} -> ${url} (attempt ${attempt}): ${outcome.status ?? outcome.error}`);
      const delivered = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
      const wait = this.options.retryDelaysMs[attempt - 1];
      if (!delivered && wait !== undefined) this.later(wait, () => this.attempt(event, url, token, attempt + 1));
    });
  }

  private post(url: string, event: StoredEvent, token: string): Promise<DeliveryOutcome> {
    return postDelivery(url, {
      headers: { "x-callback-token": token, "user-agent": "Xendit-Simulator/1.0" },
      body: event.body,
      timeoutMs: this.options.timeoutMs,
      shutdown: this.shutdown.signal,
    });
  }
}

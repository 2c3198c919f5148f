import { backoffDelay, type BackoffSettings, type Logger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EventBus } from "./bus.js";
import { outboxCollection, type OutboxRecord } from "./outbox.js";

export interface OutboxRelayOptions {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /** Pause between rounds while the bus is healthy. Default 100. */
  intervalMs?: number;
  /** Records read per round. Default 100. */
  batchSize?: number;
  /**
   * The longest pause between rounds while publishing keeps failing. Default 5000. The pauses
   * start at twice `intervalMs` and double, jittered (kit's backoffDelay), up to this.
   */
  maxBackoffMs?: number;
  /** Runs the next round after `delayMs`; returns its cancel. Tests record the delays with it. */
  setTimer?: (run: () => void, delayMs: number) => () => void;
}

function setNodeTimer(run: () => void, delayMs: number): () => void {
  const timer = setTimeout(run, delayMs);
  return () => clearTimeout(timer);
}

export interface OutboxRelay {
  /**
   * Runs rounds until no record is pending and resolves with how many it published; throws
   * the error of the first publish (or store call) that fails. Graceful shutdown calls it.
   */
  flush(): Promise<number>;
  /** Stops the rounds; waits for the one in progress. flush() still works afterwards. */
  stop(): Promise<void>;
}

interface RoundResult {
  /** Pending records the round read. */
  found: number;
  /** Records it published and deleted. */
  published: number;
  error?: unknown;
}

/**
 * Publishes the outbox: its records, oldest first, each deleted only after the bus acknowledged
 * it, so an event the bus never took stays pending and is sent by a later round (at-least-once,
 * with nothing lost across crashes and outages).
 *
 * Several replicas of a service relay one outbox, and a crash between the ack and the delete
 * repeats a publish: an event can be published twice. That is harmless by design: the eventId
 * is the bus's message id (JetStream drops a repeat within its duplicate window) and consumers
 * are idempotent anyway. Claiming records with leases would only add a failure mode.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const { bus, logger } = options;
  const intervalMs = options.intervalMs ?? 100;
  const batchSize = options.batchSize ?? 100;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  const backoff: BackoffSettings = { initialDelayMs: Math.min(2 * intervalMs, maxBackoffMs), maxDelayMs: maxBackoffMs };
  const setTimer = options.setTimer ?? setNodeTimer;
  const records = options.store.collection<OutboxRecord>(outboxCollection);

  /** Rounds run strictly one after another, whether the timer or flush() asks for them. */
  let tail: Promise<unknown> = Promise.resolve();
  /** Consecutive failed rounds that published nothing: how far along the backoff is. */
  let failures = 0;
  let outageSince: Date | null = null;
  let stopped = false;
  let cancelTimer: (() => void) | null = null;

  async function publishPending(): Promise<RoundResult> {
    let found = 0;
    let error: unknown;
    // A round's events go out together, in order, rather than each after the previous one's
    // acknowledgement: the in-process bus acknowledges once the records service has projected an
    // event, and takes the round into its log at once, so the projection gets them as one batch
    // (one transaction); JetStream pipelines them on its connection. Once every publish of the
    // round has settled, the records of the events the bus acknowledged are deleted in one write;
    // an event refused while later ones were taken goes out again next round (consumers are
    // idempotent and order-tolerant; the bus drops a repeat it still holds). The delete does not
    // wait for the disk (the store port's "deferred"): an operating-system crash that takes it
    // back only publishes those events again.
    const acknowledged: string[] = [];
    try {
      // Served by the (occurredAt, aggregateVersion) index: a resource's events in the same
      // millisecond go out in version order, not in the order of their random ids.
      const pending = await records.find({}, { sort: { occurredAt: 1, aggregateVersion: 1 }, limit: batchSize });
      found = pending.length;
      // Only events whose change is on disk go out: one committed without waiting for the disk
      // (the store port's "deferred", a create's first write) must not be announced and then
      // taken back by an operating-system crash. Shared with the flushes of the writes meanwhile.
      if (found > 0) await options.store.flush();
      const outcomes = await Promise.allSettled(
        pending.map((record) =>
          bus.publish({
            subject: record.subject,
            eventId: record._id,
            // A copy, not Buffer's view into its shared pool, so consumers may keep or transfer it.
            payload: new Uint8Array(Buffer.from(record.payload, "base64")),
            ...(record.traceContext ? { headers: record.traceContext } : {}),
          }),
        ),
      );
      outcomes.forEach((outcome, index) => {
        if (outcome.status === "fulfilled") acknowledged.push(pending[index]._id);
        else error ??= outcome.reason;
      });
    } catch (readError) {
      error = readError;
    }
    let published = 0;
    if (acknowledged.length > 0) {
      try {
        // Another replica may have deleted some of them in between: they count once, there.
        published = await records.deleteMany({ _id: { $in: acknowledged } }, { durability: "deferred" });
      } catch (deleteError) {
        error ??= deleteError;
      }
    }
    return error === undefined ? { found, published } : { found, published, error };
  }

  async function round(): Promise<RoundResult> {
    const result = await publishPending();
    if (result.published > 0) failures = 0;
    if (result.error !== undefined) {
      if (result.published === 0) failures++;
      if (!outageSince) {
        outageSince = new Date();
        logger.warn({ err: result.error, pending: result.found - result.published }, "outbox relay cannot publish; retrying with backoff");
      }
    } else if (outageSince) {
      logger.info({ since: outageSince.toISOString(), published: result.published }, "outbox relay publishing again");
      outageSince = null;
    }
    return result;
  }

  function exclusive(): Promise<RoundResult> {
    const result = tail.then(round);
    tail = result;
    return result;
  }

  function nextDelay(result: RoundResult): number {
    if (result.error !== undefined) return backoffDelay(backoff, failures);
    // A full batch means more is waiting: go on at once instead of idling through a backlog.
    return result.found === batchSize ? 0 : intervalMs;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    cancelTimer = setTimer(() => {
      cancelTimer = null;
      void exclusive().then((result) => schedule(nextDelay(result)));
    }, delayMs);
  }

  schedule(intervalMs);

  return {
    async flush() {
      let total = 0;
      for (;;) {
        const result = await exclusive();
        total += result.published;
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the publish failure caught earlier, unchanged
        if (result.error !== undefined) throw result.error;
        if (result.found === 0) return total;
      }
    },

    async stop() {
      stopped = true;
      cancelTimer?.();
      cancelTimer = null;
      await tail;
    },
  };
}

import { performance } from "node:perf_hooks";
import type { Logger } from "@bayad/kit";
import type { BatchHandler, BatchOptions, BusMessage, Consumption, EventBus } from "./bus.js";
import { BusUnavailableError } from "./bus-unavailable-error.js";
import { pause } from "@bayad/kit";
import { batchBound, oneAtATime } from "./message-batches.js";
import { RecentIds } from "./recent-ids.js";

export interface InProcessBusOptions {
  /** A second publish of one eventId within this window is dropped. Default 2 min, like JetStream. */
  duplicateWindowMs?: number;
  /** Bounds the memory of seen ids under a burst; the oldest are forgotten first. Default 100 000. */
  maxRememberedIds?: number;
  /** How long a message whose handler threw waits before it is delivered again. Default 1000. */
  redeliveryDelayMs?: number;
  /**
   * Messages a consumer handles before it lets the event loop turn. Default 16. Handlers on the
   * embedded store never wait for I/O, so without a turn a backlog would be worked off in one
   * long turn while calls to the same thread's services wait behind it. Batches count by their
   * messages and are not split: the turn comes after the batch that reaches the count.
   */
  messagesPerTurn?: number;
  /** Where handler failures are reported (never with payloads). */
  logger?: Logger;
  /**
   * The durable consumers that hold what is published (the one-process platform: the records
   * service's). This bus keeps its log in memory, so until they have handled a message, the
   * publisher's outbox is its only durable copy: publish resolves only once each of them has
   * handled it, and is refused (BusUnavailableError) while one of them is not consuming or stops
   * before it has. The relay then deletes the outbox record only after the event was projected,
   * and a crash (SIGKILL) in between loses nothing: the record is published again at the next
   * start. Default none: publish resolves once the message is in the log.
   */
  holdingDurables?: readonly string[];
}

/** A message some holding durables have not handled yet, and the publishes waiting for them. */
interface Unheld {
  remaining: Set<string>;
  waiting: Array<{ resolve: () => void; reject: (error: Error) => void }>;
}

/** Where one durable consumer stands; kept after stop() so a later consume() resumes there. */
interface Durable {
  /** Sequence number of the next message to deliver (the first one not yet acknowledged). */
  next: number;
  /** Sequence number last handed to a handler: delivering it again is a redelivery. */
  lastDelivered: number;
  active: ActiveConsumption | null;
}

interface ActiveConsumption {
  readonly controller: AbortController;
  /** Wakes the delivery loop when it waits for new messages. */
  wake: (() => void) | null;
  done: Promise<void>;
}

/**
 * The bus of the one-process mode, with JetStream's guarantees where the rest of the platform
 * relies on them: dedupe by eventId within a window, durable positions that outlive a stopped
 * consumer, at-least-once delivery. It also keeps order strictly (one message or batch at a time
 * per durable, a failed one retried before the next), which JetStream does not promise after a nak.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): EventBus {
  const duplicateWindowMs = options.duplicateWindowMs ?? 120_000;
  const maxRememberedIds = options.maxRememberedIds ?? 100_000;
  const redeliveryDelayMs = options.redeliveryDelayMs ?? 1000;
  const messagesPerTurn = options.messagesPerTurn ?? 16;
  const logger = options.logger;
  const holdingDurables = options.holdingDurables ?? [];

  /** The log; `log[i]` has sequence number `firstSeq + i`. */
  const log: BusMessage[] = [];
  let firstSeq = 0;
  const seen = new RecentIds(duplicateWindowMs, maxRememberedIds);
  const durables = new Map<string, Durable>();
  /** By eventId: published messages a holding durable has not handled yet. */
  const unheld = new Map<string, Unheld>();
  let closed = false;

  function handled(durableName: string, eventId: string): void {
    const entry = unheld.get(eventId);
    if (!entry?.remaining.delete(durableName) || entry.remaining.size > 0) return;
    unheld.delete(eventId);
    for (const publisher of entry.waiting) publisher.resolve();
  }

  /** Fails the publishes waiting for what `durableName` has not handled (it stopped, or the bus closed). */
  function refuseWaiting(durableName: string | undefined, reason: string): void {
    for (const entry of unheld.values()) {
      if (durableName !== undefined && !entry.remaining.has(durableName)) continue;
      for (const publisher of entry.waiting) publisher.reject(new BusUnavailableError(reason));
      // The entry stays: publishing the event again waits for it to be handled, not just for the duplicate check.
      entry.waiting = [];
    }
  }

  /**
   * Drops what every durable has passed. Before the first durable exists nothing is dropped, so
   * the first consumer sees everything published before it (as a JetStream deliver-all durable
   * does). Splicing only in chunks keeps publish and ack cheap.
   */
  function trim(): void {
    if (durables.size === 0) return;
    let lowest = Infinity;
    for (const durable of durables.values()) lowest = Math.min(lowest, durable.next);
    const passed = lowest - firstSeq;
    if (passed > 0 && (passed >= 1024 || passed * 2 >= log.length)) {
      log.splice(0, passed);
      firstSeq = lowest;
    }
  }

  /**
   * Hands the durable's messages to `handler` in batches of what the log holds now, up to
   * `maxMessages`, in order: a batch that fails is delivered again (with whatever was published
   * meanwhile, up to the bound) before anything after it.
   */
  async function deliver(name: string, durable: Durable, active: ActiveConsumption, handler: BatchHandler, maxMessages: number): Promise<void> {
    const { signal } = active.controller;
    let handledThisTurn = 0;
    while (!signal.aborted) {
      const first = durable.next;
      const from = first - firstSeq;
      if (from >= log.length) {
        await new Promise<void>((resolve) => {
          active.wake = resolve;
        });
        active.wake = null;
        handledThisTurn = 0;
        continue;
      }
      const batch = log.slice(from, from + maxMessages).map((message, i) => ({ ...message, redelivered: first + i <= durable.lastDelivered }));
      const last = first + batch.length - 1;
      durable.lastDelivered = Math.max(durable.lastDelivered, last);
      try {
        await handler(batch);
        durable.next = last + 1;
        for (const message of batch) handled(name, message.eventId);
        trim();
        // A batch is never split for the turn: its handler may make it one store transaction.
        handledThisTurn += batch.length;
        if (handledThisTurn >= messagesPerTurn) {
          handledThisTurn = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        const { eventId, subject } = batch[0];
        logger?.warn({ err, eventId, subject, messages: batch.length }, "event handler failed; will redeliver");
        await pause(redeliveryDelayMs, signal);
      }
    }
  }

  async function consumeBatches(durableName: string, handler: BatchHandler, options: BatchOptions): Promise<Consumption> {
    const maxMessages = batchBound(options);
    if (closed) throw new BusUnavailableError("the in-process bus is closed");
    let durable = durables.get(durableName);
    if (durable?.active) throw new Error(`durable consumer "${durableName}" is already consuming`);
    if (!durable) {
      durable = { next: firstSeq, lastDelivered: -1, active: null };
      durables.set(durableName, durable);
    }
    const active: ActiveConsumption = { controller: new AbortController(), wake: null, done: Promise.resolve() };
    durable.active = active;
    active.done = deliver(durableName, durable, active, handler, maxMessages);
    const owner = durable;
    const consumption: Consumption = {
      async stop() {
        active.controller.abort();
        active.wake?.();
        await active.done;
        if (owner.active === active) owner.active = null;
        refuseWaiting(durableName, `the ${durableName} consumer stopped before it handled the event`);
      },
    };
    return consumption;
  }

  return {
    async publish(message) {
      if (closed) throw new BusUnavailableError("the in-process bus is closed");
      const absent = holdingDurables.filter((name) => !durables.get(name)?.active);
      if (absent.length > 0) throw new BusUnavailableError(`no ${absent.join(", ")} consumer is consuming to hold the event`);
      if (!seen.seenElseRemember(message.eventId, performance.now())) {
        log.push(message);
        if (holdingDurables.length > 0) unheld.set(message.eventId, { remaining: new Set(holdingDurables), waiting: [] });
        for (const durable of durables.values()) durable.active?.wake?.();
      }
      // A second publish of an event not handled yet waits for it too: its publisher may delete its copy after.
      const entry = unheld.get(message.eventId);
      if (entry) await new Promise<void>((resolve, reject) => entry.waiting.push({ resolve, reject }));
    },

    consume: (durableName, handler) => consumeBatches(durableName, oneAtATime(handler), { maxMessages: 1 }),
    consumeBatches,

    async pending(durableName) {
      const durable = durables.get(durableName);
      return durable ? firstSeq + log.length - durable.next : undefined;
    },

    isConnected() {
      return !closed;
    },

    async close() {
      closed = true;
      await Promise.all(
        [...durables.values()].map(async (durable) => {
          const active = durable.active;
          if (!active) return;
          active.controller.abort();
          active.wake?.();
          await active.done;
          durable.active = null;
        }),
      );
      refuseWaiting(undefined, "the in-process bus closed before the event was handled");
    },
  };
}

import type { ConsumerMessages, JsMsg } from "nats";
import { backoffDelay, pause, type BackoffSettings, type Logger } from "@bayad/kit";
import type { BatchHandler, Consumption, DeliveredMessage } from "./bus.js";
import { ensureConsumer, type JetStreamNames } from "./jetstream-definitions.js";
import type { JetStreamConnection } from "./jetstream-connection.js";

export interface JetStreamConsumptionOptions {
  connection: JetStreamConnection;
  names: JetStreamNames;
  logger: Logger;
  durableName: string;
  handler: BatchHandler;
  /** The most messages in one batch (see BatchOptions). */
  maxMessages: number;
  /** How long a nak'd message waits before JetStream delivers it again. */
  redeliveryDelayMs: number;
}

/**
 * Messages fetched ahead of the handler, at least a batch's worth. Small, because each one's
 * ack_wait (30 s) runs while it waits its turn behind the handler; large enough to spare a round
 * trip per message.
 */
const PREFETCH = 20;
/** Pauses before consuming again: up to 250 ms after an iterator that ended, growing while opening fails. */
const REOPEN_BACKOFF: BackoffSettings = { initialDelayMs: 250, maxDelayMs: 5000 };

/**
 * Runs one durable consumer until stop(). Messages are handled a batch at a time (see
 * readyBatches); the handler's success acks each message of the batch, its failure naks each with
 * a delay. Note that JetStream keeps delivering the messages after nak'd ones meanwhile, so order
 * is not kept across a failure (handlers are idempotent and version-aware; the in-process bus is
 * stricter).
 *
 * nats.js's consume() already survives reconnects; when it gives up anyway (the stream or the
 * consumer vanished, e.g. a NATS restarted without its storage), the loop re-declares both and
 * consumes again, backing off while that fails.
 */
export async function startJetStreamConsumption(options: JetStreamConsumptionOptions): Promise<Consumption> {
  const { connection, names, logger, durableName } = options;
  const stopping = new AbortController();
  const { signal } = stopping;
  let messages: ConsumerMessages | null = null;

  function delivered(message: JsMsg): DeliveredMessage {
    const made: DeliveredMessage = {
      subject: message.subject.startsWith(names.subjectPrefix)
        ? message.subject.slice(names.subjectPrefix.length)
        : message.subject,
      // Nats-Msg-Id is the eventId the relay published with; a message without one (published by
      // hand) still gets a stable id from its stream position.
      eventId: message.headers?.get("Nats-Msg-Id") || `${names.stream}:${message.seq}`,
      // A plain copy: nats.js hands out a Buffer view into its read buffer.
      payload: new Uint8Array(message.data),
      redelivered: message.redelivered,
    };
    const headers = ownHeaders(message);
    if (headers) made.headers = headers;
    return made;
  }

  async function handle(batch: JsMsg[]): Promise<void> {
    const messages = batch.map(delivered);
    try {
      await options.handler(messages);
      for (const message of batch) message.ack();
    } catch (err) {
      const { eventId, subject } = messages[0];
      logger.warn({ err, eventId, subject, messages: messages.length, durable: durableName }, "event handler failed; will redeliver");
      for (const message of batch) message.nak(options.redeliveryDelayMs);
    }
  }

  /** Declares the consumer and opens its message stream; null when stopped first. */
  async function open(): Promise<ConsumerMessages | null> {
    const nc = await connection.whenConnected(Infinity, signal);
    if (!nc) return null;
    await connection.ensureStream();
    await ensureConsumer(await connection.manager(), names, durableName, logger);
    const consumer = await nc.jetstream().consumers.get(names.stream, durableName);
    // abort_on_missing_resource: end the iterator when the stream or consumer is gone, so this
    // loop re-creates them, instead of nats.js retrying forever against nothing.
    const opened = await consumer.consume({ max_messages: Math.max(PREFETCH, options.maxMessages), abort_on_missing_resource: true });
    if (signal.aborted) {
      await opened.close();
      return null;
    }
    messages = opened;
    return opened;
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const opened = await open();
        if (!opened) break;
        for await (const batch of readyBatches(opened, options.maxMessages)) {
          failures = 0;
          // Fetched but not to be handled: hand them back at once rather than after ack_wait.
          if (signal.aborted) for (const message of batch) message.nak();
          else await handle(batch);
        }
      } catch (err) {
        if (signal.aborted) break;
        connection.forgetStream();
        if (failures === 0) logger.warn({ err, durable: durableName }, "event consumer interrupted; resuming");
        failures++;
      } finally {
        messages = null;
      }
      await pause(backoffDelay(REOPEN_BACKOFF, failures + 1), signal);
    }
  }

  const running = run();

  return {
    async stop() {
      stopping.abort();
      // Not awaited here: close() resolves only once the iterator is drained, which the loop does.
      void messages?.close();
      await running;
    },
  };
}

/** What the race in readyBatches gets when the iterator has no message ready. */
const NOT_READY = Symbol("not ready");

/**
 * The messages of `source` in batches of what is ready now, up to `maxMessages`. A batch waits
 * for its first message only; the rest are what the iterator yields before the event loop's next
 * turn (nats.js yields what it has received in promise jobs), so a batch never waits to fill up.
 * The step still under way when the turn comes (a later message, the end, an error) is taken up
 * by the next batch, never dropped.
 */
async function* readyBatches(source: AsyncIterable<JsMsg>, maxMessages: number): AsyncGenerator<JsMsg[]> {
  const iterator = source[Symbol.asyncIterator]();
  let ahead: Promise<IteratorResult<JsMsg>> | null = null;
  try {
    for (;;) {
      const first = await (ahead ?? iterator.next());
      ahead = null;
      if (first.done) return;
      const batch = [first.value];
      while (batch.length < maxMessages) {
        const step = iterator.next();
        const ready = await Promise.race([step, nextTurn()]).catch((): typeof NOT_READY => NOT_READY);
        if (ready === NOT_READY || ready.done) {
          ahead = step;
          break;
        }
        batch.push(ready.value);
      }
      yield batch;
    }
  } finally {
    // Left early (the caller failed): a message the pending step brings is handed back at once.
    void ahead?.then(
      (result) => void (result.done ? undefined : result.value.nak()),
      () => undefined,
    );
  }
}

function nextTurn(): Promise<typeof NOT_READY> {
  return new Promise((resolve) => setImmediate(resolve, NOT_READY));
}

/** The headers the publisher gave the message (its trace context), without NATS's own (Nats-*); undefined when none. */
function ownHeaders(message: JsMsg): Record<string, string> | undefined {
  if (!message.headers) return undefined;
  let own: Record<string, string> | undefined;
  for (const name of message.headers.keys()) {
    if (name.toLowerCase().startsWith("nats-")) continue;
    own ??= {};
    own[name.toLowerCase()] = message.headers.get(name);
  }
  return own;
}

import { ErrorCode, NatsError, headers as natsHeaders, type JetStreamClient, type MsgHdrs, type NatsConnection } from "nats";
import type { Logger } from "@bayad/kit";
import type { BatchHandler, BatchOptions, Consumption, EventBus } from "./bus.js";
import { BusUnavailableError } from "./bus-unavailable-error.js";
import { assertDurableName, EVENTS_SUBJECT_ROOT, jetStreamNames } from "./jetstream-definitions.js";
import { openJetStreamConnection } from "./jetstream-connection.js";
import { startJetStreamConsumption } from "./jetstream-consumption.js";
import { batchBound, oneAtATime } from "./message-batches.js";

export interface JetStreamBusOptions {
  /** NATS_URL, e.g. nats://127.0.0.1:4222. */
  url: string;
  /** Isolates this bus's stream and subjects from others on the same server (tests, CI jobs). */
  namespace?: string;
  logger: Logger;
  /** The stream's duplicate_window: a second publish of an eventId within it is dropped. Default 2 min. */
  duplicateWindowMs?: number;
  /** How long a publish may wait for the connection and the server's ack. Default 5000. */
  publishTimeoutMs?: number;
  /** How long a message whose handler threw waits before redelivery. Default 1000. */
  redeliveryDelayMs?: number;
  /** Pause between connection attempts while NATS is away. Default 2000 (nats.js's default). */
  reconnectTimeWaitMs?: number;
}

/**
 * The production bus: NATS JetStream. The stream and each durable consumer are declared in code
 * and created (or updated) on first use and again after a reconnect, so an empty NATS needs no
 * preparation. Resolves at once, without waiting for NATS: see openJetStreamConnection.
 */
export async function connectJetStreamBus(options: JetStreamBusOptions): Promise<EventBus> {
  const { logger } = options;
  const names = jetStreamNames(options.namespace);
  const publishTimeoutMs = options.publishTimeoutMs ?? 5000;
  const redeliveryDelayMs = options.redeliveryDelayMs ?? 1000;
  const connection = openJetStreamConnection({
    url: options.url,
    names,
    logger,
    duplicateWindowMs: options.duplicateWindowMs ?? 120_000,
    apiTimeoutMs: publishTimeoutMs,
    reconnectTimeWaitMs: options.reconnectTimeWaitMs ?? 2000,
  });
  const consumptions = new Set<Consumption>();
  const clients = new WeakMap<NatsConnection, JetStreamClient>();
  let closed = false;

  async function consumeBatches(durableName: string, handler: BatchHandler, options: BatchOptions): Promise<Consumption> {
    const maxMessages = batchBound(options);
    if (closed) throw new BusUnavailableError("the event bus is closed");
    assertDurableName(durableName);
    const consumption = await startJetStreamConsumption({ connection, names, logger, durableName, handler, maxMessages, redeliveryDelayMs });
    consumptions.add(consumption);
    return {
      async stop() {
        consumptions.delete(consumption);
        await consumption.stop();
      },
    };
  }

  return {
    async publish(message) {
      if (closed) throw new BusUnavailableError("the event bus is closed");
      if (!message.subject.startsWith(`${EVENTS_SUBJECT_ROOT}.`)) {
        throw new Error(`event subject "${message.subject}" is outside ${EVENTS_SUBJECT_ROOT}.>`);
      }
      const deadline = Date.now() + publishTimeoutMs;
      const nc = await connection.whenConnected(publishTimeoutMs);
      if (!nc) throw new BusUnavailableError("NATS is not reachable");
      const js = clients.get(nc) ?? nc.jetstream({ timeout: publishTimeoutMs });
      clients.set(nc, js);
      // A stream found missing (no responders) is declared again and the publish retried once.
      for (let attempt = 1; ; attempt++) {
        try {
          await connection.ensureStream();
          const timeout = Math.max(deadline - Date.now(), 1);
          // Resolves on the server's PubAck only: the message is stored. A duplicate ack (the
          // eventId was stored before, within duplicate_window) is success too.
          await js.publish(names.subjectPrefix + message.subject, message.payload, {
            msgID: message.eventId,
            timeout,
            ...(message.headers ? { headers: messageHeaders(message.headers) } : {}),
          });
          return;
        } catch (err) {
          const noStream = err instanceof NatsError && err.code === (ErrorCode.NoResponders as string);
          if (noStream) connection.forgetStream();
          if (noStream && attempt === 1 && Date.now() < deadline) continue;
          throw new BusUnavailableError("the event was not acknowledged by NATS", { cause: err });
        }
      }
    },

    consume: (durableName, handler) => consumeBatches(durableName, oneAtATime(handler), { maxMessages: 1 }),
    consumeBatches,

    async pending(durableName) {
      const nc = closed ? undefined : await connection.whenConnected(publishTimeoutMs);
      if (!nc) return undefined;
      try {
        // The connection's cached manager: a scrape must not open a JetStream API session each time.
        const info = await (await connection.manager()).consumers.info(names.stream, durableName);
        return info.num_pending + info.num_ack_pending;
      } catch {
        return undefined;
      }
    },

    isConnected() {
      return !closed && connection.isConnected();
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumptions].map((consumption) => consumption.stop()));
      consumptions.clear();
      await connection.close();
    },
  };
}

/** A message's own headers (its trace context) as NATS headers; JetStream adds Nats-Msg-Id. */
function messageHeaders(entries: Record<string, string>): MsgHdrs {
  const made = natsHeaders();
  for (const [name, value] of Object.entries(entries)) made.set(name, value);
  return made;
}

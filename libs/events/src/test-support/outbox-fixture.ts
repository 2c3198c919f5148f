import type { Logger } from "@bayad/kit";
import type { Collection, Store } from "@bayad/store";
import type { DeliveredMessage, EventBus } from "../bus.js";
import { outboxCollection, type OutboxRecord } from "../outbox.js";

export function outboxOf(store: Store): Collection<OutboxRecord> {
  return store.collection<OutboxRecord>(outboxCollection);
}

/** Outbox records (pending, as every record is) whose payload is the eventId's bytes (enough for relay tests). */
export async function writeOutboxRecords(store: Store, eventIds: string[], firstOccurredAt = Date.now()): Promise<void> {
  const outbox = outboxOf(store);
  for (const [i, eventId] of eventIds.entries()) {
    await outbox.insertOne({
      _id: eventId,
      subject: "bayad.events.test.thing.created",
      projectId: "prj_test",
      environment: "test",
      resourceId: `thing_${i}`,
      aggregateVersion: 1,
      occurredAt: new Date(firstOccurredAt + i),
      payload: Buffer.from(eventId).toString("base64"),
    });
  }
}

export async function unpublishedIds(store: Store): Promise<string[]> {
  return (await outboxOf(store).find({}, { sort: { occurredAt: 1 } })).map((r) => r._id);
}

/** Everything a durable consumer receives, in order (decoding the payload back to the eventId). */
export async function collect(bus: EventBus, durableName: string) {
  const seen: DeliveredMessage[] = [];
  const consumption = await bus.consume(durableName, async (m) => void seen.push(m));
  return {
    seen,
    ids: () => seen.map((m) => m.eventId),
    payloads: () => seen.map((m) => Buffer.from(m.payload).toString()),
    stop: () => consumption.stop(),
  };
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  fields: Record<string, unknown>;
  message: string;
}

/** A Logger that keeps its lines, for tests that check what is (and is not) logged. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine["level"]) =>
    (fields: unknown, message?: string): void => {
      if (typeof fields === "string") lines.push({ level, fields: {}, message: fields });
      else lines.push({ level, fields: (fields ?? {}) as Record<string, unknown>, message: message ?? "" });
    };
  const logger = { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), trace: () => {} };
  const self = { ...logger, child: () => self };
  return self as unknown as Logger & { lines: LogLine[] };
}

import { batchInTransaction, eventMessageHandler, type BatchHandler, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import type { Logger } from "@bayad/kit";
import type { Session, Store } from "@bayad/store";
import { DEFAULT_BATCH_SIZE } from "./config.js";
import { projectInTransaction, projectionIn, projectRecord } from "./records/projection.js";
import { MalformedEventError, recordFromEvent } from "./records/record-from-event.js";
import type { ProjectedRecord } from "./records/payment-record.js";

/** The records feed's durable consumer on the bus: its position survives restarts. */
export const RECORDS_DURABLE_NAME = "records";

export interface RecordsConsumerOptions {
  bus: EventBus;
  store: Store;
  logger: Logger;
  /** The most events projected in one store transaction (RecordsConfig.batchSize). Default DEFAULT_BATCH_SIZE. */
  batchSize?: number;
}

/**
 * Handles one bus message. It resolves (acknowledges) only once the record and its totals are
 * written or the message is known to need no write; a store failure throws, so the bus delivers
 * it again. A message that can never be projected (undecodable, malformed) is logged and
 * acknowledged: redelivering it would fail forever and block the feed behind it.
 *
 * With `session` the writes belong to that transaction (a batch's); without, each message is
 * projected in a transaction of its own: a record and its totals are never written apart.
 */
export function recordsMessageHandler(deps: { store: Store; session?: Session; now: () => Date; logger: Logger }): MessageHandler {
  const { store, session, now, logger } = deps;
  const inBatch = session !== undefined ? projectionIn(store, session, now) : undefined;
  const project = (record: ProjectedRecord) =>
    inBatch !== undefined ? projectRecord(inBatch, record) : projectInTransaction(store, now, record);
  return eventMessageHandler(logger, async (event, message) => {
    let record: ProjectedRecord | null;
    try {
      record = recordFromEvent(event);
    } catch (error) {
      if (!(error instanceof MalformedEventError)) throw error;
      logger.error({ err: error, subject: message.subject, eventId: event.eventId }, "malformed event skipped");
      return;
    }
    if (record === null) {
      if (event.snapshot.case === undefined) logger.warn({ subject: message.subject, eventId: event.eventId }, "event without a known snapshot skipped");
      return;
    }
    try {
      const outcome = await project(record);
      logger.debug({ eventId: event.eventId, recordId: record._id, version: record.aggregateVersion, outcome }, "event projected");
    } catch (error) {
      logger.warn({ err: error, eventId: event.eventId, redelivered: message.redelivered }, "projection failed; the event will be redelivered");
      throw error;
    }
  });
}

/**
 * Projects a batch of bus messages in one store transaction (batchInTransaction): one commit for
 * the batch instead of one per event. Each message goes through recordsMessageHandler, so the
 * rules are those of one event (two versions of a record in one batch end at the higher, as the
 * transaction's reads see its own writes) and a message that can never be projected is skipped
 * without failing the batch. A store failure throws, nothing of the batch is kept, and the bus
 * delivers all of it again.
 */
export function recordsBatchHandler(deps: { store: Store; now: () => Date; logger: Logger }): BatchHandler {
  const { store, now, logger } = deps;
  return batchInTransaction(store, { component: "records", durableName: RECORDS_DURABLE_NAME }, (session) =>
    recordsMessageHandler({ store, session, now, logger }),
  );
}

/** Consumes every event from the bus into `payment_records` and `payment_totals`, a batch per transaction. */
export function startRecordsConsumer(options: RecordsConsumerOptions): Promise<Consumption> {
  const handler = recordsBatchHandler({ store: options.store, now: () => new Date(), logger: options.logger });
  return options.bus.consumeBatches(RECORDS_DURABLE_NAME, handler, { maxMessages: options.batchSize ?? DEFAULT_BATCH_SIZE });
}

import { eventMessageHandler, traceMessages, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import type { Logger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createPaymentRecordsRepository } from "./records/payment-records-repository.js";
import { projectRecord, type ProjectionDeps } from "./records/projection.js";
import { MalformedEventError, recordFromEvent } from "./records/record-from-event.js";
import type { ProjectedRecord } from "./records/payment-record.js";

/** The records feed's durable consumer on the bus: its position survives restarts. */
export const RECORDS_DURABLE_NAME = "records";

export interface RecordsConsumerOptions {
  bus: EventBus;
  store: Store;
  logger: Logger;
}

/**
 * Handles one bus message. It resolves (acknowledges) only once the record is written or the
 * message is known to need no write; a store failure throws, so the bus delivers it again.
 * A message that can never be projected (undecodable, malformed) is logged and acknowledged:
 * redelivering it would fail forever and block the feed behind it.
 */
export function recordsMessageHandler(deps: ProjectionDeps & { logger: Logger }): MessageHandler {
  const { logger } = deps;
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
      const outcome = await projectRecord(deps, record);
      logger.debug({ eventId: event.eventId, recordId: record._id, version: record.aggregateVersion, outcome }, "event projected");
    } catch (error) {
      logger.warn({ err: error, eventId: event.eventId, redelivered: message.redelivered }, "projection failed; the event will be redelivered");
      throw error;
    }
  });
}

/** Consumes every event from the bus into the `payment_records` projection. */
export function startRecordsConsumer(options: RecordsConsumerOptions): Promise<Consumption> {
  const handler = recordsMessageHandler({
    repository: createPaymentRecordsRepository(options.store),
    now: () => new Date(),
    logger: options.logger,
  });
  // Each event's projection in a span under the trace of the change it announces.
  return options.bus.consume(RECORDS_DURABLE_NAME, traceMessages("records", RECORDS_DURABLE_NAME, handler));
}

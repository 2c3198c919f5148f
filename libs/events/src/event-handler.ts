import { fromBinary } from "@bufbuild/protobuf";
import { EventSchema, type Event } from "@bayad/proto";
import type { Logger } from "@bayad/kit";
import type { DeliveredMessage, MessageHandler } from "./bus.js";

/**
 * A bus message handler over decoded events: `handle` gets each message's Event, and resolving
 * or throwing acknowledges or leaves the message as for any handler. A message that does not
 * decode is logged and acknowledged: redelivering it would fail forever and hold back every
 * message behind it on the durable consumer.
 */
export function eventMessageHandler(logger: Logger, handle: (event: Event, message: DeliveredMessage) => Promise<void>): MessageHandler {
  return async (message) => {
    let event: Event;
    try {
      event = fromBinary(EventSchema, message.payload);
    } catch (error) {
      logger.error({ err: error, subject: message.subject, eventId: message.eventId }, "undecodable event skipped");
      return;
    }
    await handle(event, message);
  };
}

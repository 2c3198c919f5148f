import { randomBytes } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { EventSchema, type Event } from "@bayad/proto";
import type { BusMessage, EventBus } from "@bayad/events";

/** One event as the bus delivered it, with its decoded payload. */
export interface CapturedEvent {
  message: BusMessage;
  event: Event;
}

/**
 * Watches the bus from now on through a durable consumer of its own, the way the records service
 * does: outbox records keep their payload only until published, so tests read events here.
 */
export async function captureEvents(bus: EventBus) {
  const seen: CapturedEvent[] = [];
  const consumption = await bus.consume(`e2e-capture-${randomBytes(6).toString("hex")}`, async (message) => {
    const { subject, eventId, payload } = message;
    seen.push({ message: { subject, eventId, payload }, event: fromBinary(EventSchema, payload) });
  });
  return {
    /** The events of one resource seen so far, by aggregateVersion (a redelivery counts once). */
    of(resourceId: string): CapturedEvent[] {
      const ofResource = seen.filter((captured) => captured.event.resourceId === resourceId);
      const byId = new Map(ofResource.map((captured) => [captured.event.eventId, captured]));
      return [...byId.values()].sort((a, b) => a.event.aggregateVersion - b.event.aggregateVersion);
    },
    stop: () => consumption.stop(),
  };
}

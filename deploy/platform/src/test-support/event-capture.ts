import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { fromBinary } from "@bufbuild/protobuf";
import { EventSchema, type Event } from "@bayad/proto";
import type { BusMessage, EventBus } from "@bayad/events";
import { eventually } from "./harness.js";

/** One event as the bus delivered it, with its decoded payload. */
export interface CapturedEvent {
  message: BusMessage;
  event: Event;
}

export type EventCapture = Awaited<ReturnType<typeof captureEvents>>;

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

  /** The events of one resource seen so far, by aggregateVersion (a redelivery counts once). */
  function of(resourceId: string): CapturedEvent[] {
    const ofResource = seen.filter((captured) => captured.event.resourceId === resourceId);
    const byId = new Map(ofResource.map((captured) => [captured.event.eventId, captured]));
    return [...byId.values()].sort((a, b) => a.event.aggregateVersion - b.event.aggregateVersion);
  }

  return {
    /** Waits until the resource's event at `aggregateVersion` has arrived; returns all its events so far. */
    publishedThrough(resourceId: string, aggregateVersion: number): Promise<CapturedEvent[]> {
      return eventually(async () => {
        const events = of(resourceId);
        return events.some((captured) => captured.event.aggregateVersion >= aggregateVersion) ? events : undefined;
      });
    },
    stop: () => consumption.stop(),
  };
}

/** Runs `work` with the bus watched (see captureEvents), and stops watching however it ends. */
export async function withEventCapture<T>(bus: EventBus, work: (captured: EventCapture) => Promise<T>): Promise<T> {
  const captured = await captureEvents(bus);
  try {
    return await work(captured);
  } finally {
    await captured.stop();
  }
}

/**
 * Waits until the bus delivered the resource's last move and checks that its events, by
 * aggregateVersion, are exactly `moves` ([subject, aggregateVersion]): the relay publishes only
 * what a transaction wrote to the outbox, in version order, and deletes it once published, so the
 * bus is where every move is seen. Returns the latest event.
 */
export async function expectMovesPublished(
  captured: EventCapture,
  resourceId: string,
  moves: Array<[subject: string, aggregateVersion: number]>,
): Promise<Event> {
  const lastVersion = moves[moves.length - 1]![1];
  const published = await captured.publishedThrough(resourceId, lastVersion);
  expect(published.map((c) => [c.message.subject, c.event.aggregateVersion])).toEqual(moves);
  for (const c of published) expect(c.message.eventId).toBe(c.event.eventId);
  return published[published.length - 1]!.event;
}

import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventSchema, type Event } from "@bayad/proto";
import { newId, traceHeaders, type CallerContext } from "@bayad/kit";
import type { CollectionDef, Doc, Session, Store } from "@bayad/store";

/**
 * The transactional outbox: each service writes the event that announces a state change in the
 * same store transaction as the change itself, so an event exists exactly when the change does.
 * A relay later publishes the records and deletes each once the bus has acknowledged it: the
 * collection holds only what is still to be published (the bus, and the records feed, hold the
 * rest), so it stays small however long a service runs.
 */
export interface OutboxRecord extends Doc {
  /** The event id, also the JetStream Nats-Msg-Id. */
  _id: string;
  /** bayad.events.<service>.<resource>.<verb> */
  subject: string;
  projectId: string;
  environment: string;
  resourceId: string;
  aggregateVersion: number;
  occurredAt: Date;
  /** The protobuf-encoded Event, base64. */
  payload: string;
  /**
   * The trace context of the transaction that wrote it (W3C `traceparent`, maybe `tracestate`),
   * published as the message's headers; absent when traces are off.
   */
  traceContext?: Record<string, string>;
}

export const outboxCollection: CollectionDef = {
  name: "outbox",
  // Publish order: oldest first, and a resource's events by version when they share a millisecond.
  indexes: [{ name: "outbox_pending_order", keys: { occurredAt: 1, aggregateVersion: 1 } }],
};

/** The snapshot case of Event (which resource the event carries) and its value. */
export type EventSnapshot = Event["snapshot"] & { case: string };

export interface NewEvent {
  /** <resource>.<verb>, e.g. "customer.created". */
  name: string;
  caller: Pick<CallerContext, "projectId" | "environment">;
  resourceId: string;
  aggregateVersion: number;
  snapshot: EventSnapshot;
}

export interface Outbox {
  /** Writes the event within `session`: call it inside the transaction that makes the change. */
  append(event: NewEvent, session: Session): Promise<Event>;
}

export function createOutbox(store: Store, service: string): Outbox {
  const records = store.collection<OutboxRecord>(outboxCollection);
  return {
    async append(input, session) {
      const occurredAt = new Date();
      const type = `${service}.${input.name}`;
      const event = create(EventSchema, {
        eventId: newId("evt"),
        type,
        projectId: input.caller.projectId,
        environment: input.caller.environment,
        resourceId: input.resourceId,
        aggregateVersion: input.aggregateVersion,
        occurredAt: timestampFromDate(occurredAt),
        snapshot: input.snapshot,
      });
      const record: OutboxRecord = {
        _id: event.eventId,
        subject: `bayad.events.${type}`,
        projectId: event.projectId,
        environment: event.environment,
        resourceId: event.resourceId,
        aggregateVersion: event.aggregateVersion,
        occurredAt,
        payload: Buffer.from(toBinary(EventSchema, event)).toString("base64"),
      };
      const traceContext = traceHeaders();
      if (traceContext) record.traceContext = traceContext;
      await records.insertOne(record, { session });
      return event;
    },
  };
}

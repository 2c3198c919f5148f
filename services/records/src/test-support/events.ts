import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventSchema, type Event } from "@bayad/proto";
import { newId, type Environment } from "@bayad/kit";

type Snapshot = NonNullable<MessageInitShape<typeof EventSchema>["snapshot"]>;

export interface EventOptions {
  resourceId: string;
  version?: number;
  projectId?: string;
  environment?: Environment;
  occurredAt?: Date;
}

/** An event as a service's outbox would write it, carrying `snapshot`. */
export function eventOf(snapshot: Snapshot, options: EventOptions): Event {
  return create(EventSchema, {
    eventId: newId("evt"),
    type: `test.${String(snapshot.case)}.changed`,
    projectId: options.projectId ?? "prj_records",
    environment: options.environment ?? "test",
    resourceId: options.resourceId,
    aggregateVersion: options.version ?? 1,
    occurredAt: timestampFromDate(options.occurredAt ?? new Date()),
    snapshot,
  });
}

/** The bus message for an event. */
export function messageOf(event: Event) {
  return { subject: `bayad.events.${event.type}`, eventId: event.eventId, payload: toBinary(EventSchema, event) };
}

export const php = (amountMinor: number) => ({ amountMinor: BigInt(amountMinor), currency: "PHP" });
export const at = (date: Date) => timestampFromDate(date);

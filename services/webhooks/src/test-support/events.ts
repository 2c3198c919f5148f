import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CheckoutStatus, EventSchema, type Event } from "@bayad/proto";
import { newId, type Environment } from "@bayad/kit";

type Snapshot = NonNullable<MessageInitShape<typeof EventSchema>["snapshot"]>;

/** An event as a service's outbox would write it: `type` is the internal one (payments.checkout.paid). */
export function eventOf(type: string, snapshot: Snapshot, options: { resourceId: string; projectId: string; environment?: Environment }): Event {
  return create(EventSchema, {
    eventId: newId("evt"),
    type,
    projectId: options.projectId,
    environment: options.environment ?? "test",
    resourceId: options.resourceId,
    aggregateVersion: 3,
    occurredAt: timestampFromDate(new Date()),
    snapshot,
  });
}

/** The bus message for an event. */
export function messageOf(event: Event) {
  return { subject: `bayad.events.${event.type}`, eventId: event.eventId, payload: toBinary(EventSchema, event) };
}

/** `payments.checkout.paid` for a new checkout of the project, with its hosted page's path. */
export function paidCheckoutEvent(projectId: string, environment: Environment = "test"): Event {
  const checkoutId = newId("chk");
  return eventOf(
    "payments.checkout.paid",
    {
      case: "checkout",
      value: {
        checkoutId,
        referenceId: `order-${checkoutId}`,
        status: CheckoutStatus.PAID,
        amount: { amountMinor: 1250_00n, currency: "PHP" },
        checkoutUrl: `/checkout/${checkoutId}?token=t0k3n`,
        aggregateVersion: 3,
      },
    },
    { resourceId: checkoutId, projectId, environment },
  );
}

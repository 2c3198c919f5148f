import { AttributeReader } from "../attribute-reader.js";
import { randomBase62 } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { StoredObject } from "../state.js";

const TYPE = "webhook";

/** The event types a webhook can ask for ([O] list, plus qrph.expired from [3P] integrations). */
export const EVENT_TYPES = [
  "source.chargeable",
  "payment.paid",
  "payment.failed",
  "payment.refunded",
  "payment.refund.updated",
  "checkout_session.payment.paid",
  "link.payment.paid",
  "qrph.expired",
  "subscription.past_due",
  "subscription.unpaid",
  "subscription.updated",
  "subscription.invoice.created",
  "subscription.invoice.finalized",
  "subscription.invoice.paid",
  "subscription.invoice.payment_failed",
] as const;

export function createWebhook(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const url = r.url("url", { required: true });
  const events = r.stringList("events", { required: true, allowed: EVENT_TYPES });
  r.done();
  const webhook = sim.state.create(req.account, "hook", TYPE, {
    disabled_reason: null,
    events,
    // Returned on create and on reads, as the contract says; it is what signs the deliveries.
    secret_key: `whsk_${randomBase62(24)}`,
    status: "enabled",
    url,
  });
  webhook.internal["exhaustedInARow"] = 0;
  return { data: sim.state.render(webhook) };
}

export function listWebhooks(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.list(req.account, TYPE).map((o) => sim.state.render(o)), has_more: false };
}

export function getWebhook(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}

export function updateWebhook(sim: Simulation, req: ApiRequest) {
  const webhook = sim.state.owned(req.account, req.params[0], TYPE);
  const r = new AttributeReader(req.attributes);
  const url = r.url("url");
  const events = r.stringList("events", { allowed: EVENT_TYPES });
  if (events?.length === 0) r.fail("events", "parameter_invalid", "events must not be empty.");
  r.done();
  sim.state.update(webhook, { ...(url ? { url } : {}), ...(events ? { events } : {}) });
  return { data: sim.state.render(webhook) };
}

export function enableWebhookRoute(sim: Simulation, req: ApiRequest) {
  const webhook = sim.state.owned(req.account, req.params[0], TYPE);
  webhook.internal["exhaustedInARow"] = 0;
  sim.state.update(webhook, { status: "enabled", disabled_reason: null });
  return { data: sim.state.render(webhook) };
}

export function disableWebhookRoute(sim: Simulation, req: ApiRequest) {
  const webhook = sim.state.owned(req.account, req.params[0], TYPE);
  sim.state.update(webhook, { status: "disabled", disabled_reason: "disabled_by_merchant" });
  return { data: sim.state.render(webhook) };
}

/** The account's enabled webhooks (of the event's mode, since a key has one mode) that want this type. */
export function webhooksFor(sim: Simulation, owner: string, eventType: string): StoredObject[] {
  return sim.state
    .all(TYPE)
    .filter((w) => w.owner === owner && w.attributes["status"] === "enabled" && (w.attributes["events"] as string[]).includes(eventType));
}

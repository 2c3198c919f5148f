import { isPlainObject } from "@bayad/simulator-kit";
import { failedState } from "../api-error.js";
import { checkMethodAmounts } from "../amount-limits.js";
import { AttributeReader } from "../attribute-reader.js";
import { CHECKOUT_METHOD_NAMES } from "../payment-methods-catalogue.js";
import { randomBase62, unixNow } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { StoredObject } from "../state.js";
import { newIntent } from "./payment-intents.js";
import { createPayment } from "./payments.js";

const TYPE = "checkout_session";
/** A session opens a payment intent for its total, so the intent's minimum applies (PHP 20.00). */
const MINIMUM_TOTAL = 2000;

export function createCheckoutSession(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const lineItems = readLineItems(r, req.attributes["line_items"]);
  const methods = r.stringList("payment_method_types", { required: true, allowed: CHECKOUT_METHOD_NAMES });
  // The simulator requires the URLs and reference number (the contract); PayMongo's reference
  // marks some of them optional, and Bayad always sends them.
  const successUrl = r.url("success_url", { required: true });
  const cancelUrl = r.url("cancel_url", { required: true });
  const referenceNumber = r.string("reference_number", { required: true, maxLength: 255 });
  const description = r.string("description", { maxLength: 255 });
  const metadata = r.metadata();
  const sendEmailReceipt = r.boolean("send_email_receipt");
  const showDescription = r.boolean("show_description");
  const showLineItems = r.boolean("show_line_items");
  const billing = r.object("billing");
  const total = lineItems?.reduce((sum, item) => sum + item.amount * item.quantity, 0);
  if (total !== undefined && total < MINIMUM_TOTAL) {
    r.fail("line_items", "parameter_below_minimum", `The total of line_items cannot be less than ${MINIMUM_TOTAL}.`);
  } else if (total !== undefined && methods !== undefined) {
    checkMethodAmounts(r, "line_items", total, methods, "checkout_session");
  }
  r.done();

  const intent = newIntent(sim, req.account, {
    amount: total!,
    currency: "PHP",
    methods: methods!,
    description: description ?? null,
    metadata: metadata ?? null,
  });
  const session = sim.state.create(
    req.account,
    "cs",
    TYPE,
    {
      billing: billing ?? null,
      billing_information_fields_editable: "enabled",
      cancel_url: cancelUrl,
      checkout_url: "",
      client_key: "",
      customer_email: null,
      description: description ?? null,
      line_items: lineItems,
      merchant: "PayMongo Simulator",
      metadata: metadata ?? null,
      paid_at: null,
      payment_method_types: methods,
      payment_method_used: null,
      reference_number: referenceNumber,
      send_email_receipt: sendEmailReceipt ?? false,
      show_description: showDescription ?? true,
      show_line_items: showLineItems ?? true,
      status: "active",
      success_url: successUrl,
      payments: [],
      payment_intent: null,
    },
    { payments: [], payment_intent: intent.id },
  );
  intent.internal["checkoutSessionId"] = session.id;
  session.attributes["checkout_url"] = `${sim.state.baseUrl}/checkout/${session.id}`;
  session.attributes["client_key"] = `${session.id}_client_${randomBase62(24)}`;
  return { data: sim.state.render(session) };
}

function readLineItems(r: AttributeReader, value: unknown) {
  if (value === undefined || value === null) {
    r.fail("line_items", "parameter_required", "line_items is required.");
    return undefined;
  }
  if (!Array.isArray(value) || value.length === 0) {
    r.fail("line_items", "parameter_invalid", "line_items must be a non-empty array.");
    return undefined;
  }
  let ok = true;
  const items = value.map((raw: unknown, i) => {
    if (!isPlainObject(raw)) {
      r.fail(`line_items[${i}]`, "parameter_invalid", `line_items[${i}] must be an object.`);
      ok = false;
      return undefined;
    }
    const item = r.nested(raw, `line_items[${i}].`);
    const name = item.string("name", { required: true, maxLength: 255 });
    const amount = item.integer("amount", { required: true, min: 1 });
    const currency = item.oneOf("currency", ["PHP"], { required: true });
    const quantity = item.integer("quantity", { required: true, min: 1 });
    const description = item.string("description", { maxLength: 255 });
    const images = item.stringList("images");
    if ([name, amount, currency, quantity].includes(undefined)) ok = false;
    return { amount: amount!, currency: currency!, description: description ?? null, images: images ?? [], name: name!, quantity: quantity! };
  });
  return ok ? (items as Array<NonNullable<(typeof items)[number]>>) : undefined;
}

export function getCheckoutSession(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}

export function expireCheckoutSessionRoute(sim: Simulation, req: ApiRequest) {
  const session = sim.state.owned(req.account, req.params[0], TYPE);
  expireSession(sim, session);
  return { data: sim.state.render(session) };
}

/**
 * A paid session still reads `status: "active"`, with `paid_at` set and a paid entry in
 * `payments[]` [O checkout session example]: paid-ness is read from those, never from status.
 */
export const isSessionPaid = (session: StoredObject) => session.attributes["paid_at"] !== null && session.attributes["paid_at"] !== undefined;

export function expireSession(sim: Simulation, session: StoredObject): void {
  if (session.attributes["status"] !== "active" || isSessionPaid(session)) {
    throw failedState(`The checkout session ${session.id} is ${isSessionPaid(session) ? "paid" : String(session.attributes["status"])} and cannot be expired.`);
  }
  sim.state.update(session, { status: "expired" });
}

/**
 * The customer pays the session: a paid payment, the session and its intent closed, and the two
 * events PayMongo sends for it.
 */
export function paySession(sim: Simulation, session: StoredObject, method?: string): { paymentId: string } {
  if (session.attributes["status"] !== "active" || isSessionPaid(session)) {
    throw failedState(`The checkout session ${session.id} is ${isSessionPaid(session) ? "paid" : String(session.attributes["status"])} and cannot be paid.`);
  }
  const methods = session.attributes["payment_method_types"] as string[];
  const used = method ?? methods[0];
  if (!methods.includes(used)) {
    throw failedState(`The checkout session ${session.id} does not accept ${used}.`);
  }
  const intent = sim.state.find(session.refs["payment_intent"] as string)!;
  const payment = createPayment(sim.state, session, {
    amount: intent.attributes["amount"] as number,
    currency: "PHP",
    description: (session.attributes["description"] as string | null) ?? null,
    method: used,
    status: "paid",
    paymentIntentId: intent.id,
    metadata: (session.attributes["metadata"] as Record<string, string> | null) ?? null,
    origin: "checkout",
  });
  (intent.refs["payments"] as string[]).push(payment.id);
  sim.state.update(intent, { status: "succeeded", next_action: null });
  (session.refs["payments"] as string[]).push(payment.id);
  sim.state.update(session, { paid_at: unixNow(), payment_method_used: used });
  sim.state.emit("checkout_session.payment.paid", session);
  sim.state.emit("payment.paid", payment);
  return { paymentId: payment.id };
}

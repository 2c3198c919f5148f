import { failedState, invalid, PaymongoSimulatorError } from "../api-error.js";
import { AttributeReader } from "../attribute-reader.js";
import { unixNow } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { StoredObject } from "../state.js";
import { refundableAmount } from "./payments.js";

const TYPE = "refund";
const MINIMUM_AMOUNT = 100;
const REASONS = ["duplicate", "fraudulent", "requested_by_customer", "others"] as const;

/**
 * How PayMongo refunds each method (paymongo.md §5, docs/refunding-transactions): the window in
 * days after payment (Maya: 12 months, taken as 365 days), whether only full refunds are taken
 * (GrabPay and Maya: the v1 guide and the refund-errors page say so, the newer table disagrees;
 * `parameter_above_maximum` is what the errors page gives), and no refunds at all for QR Ph and UBP.
 * A method missing here is refunded with no window.
 */
const METHOD_RULES: Record<string, { windowDays?: number; fullOnly?: boolean; refundable?: false }> = {
  card: { windowDays: 60 },
  gcash: { windowDays: 180 },
  grab_pay: { windowDays: 90, fullOnly: true },
  paymaya: { windowDays: 365, fullOnly: true },
  billease: { windowDays: 60 },
  dob: { windowDays: 30 },
  dob_ubp: { refundable: false },
  brankas: { windowDays: 30 },
  brankas_bdo: { windowDays: 30 },
  brankas_landbank: { windowDays: 30 },
  brankas_metrobank: { windowDays: 30 },
  qrph: { refundable: false },
};

const DAY_SECONDS = 86_400;

export function createRefund(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const amount = r.integer("amount", { required: true, min: MINIMUM_AMOUNT });
  const paymentId = r.string("payment_id", { required: true });
  const reason = r.oneOf("reason", REASONS, { required: true });
  const notes = r.string("notes", { maxLength: 255 });
  const metadata = r.metadata();
  r.done();
  const payment = sim.state.owned(req.account, paymentId!, "payment", "payment_id");
  if (payment.attributes["status"] !== "paid") {
    throw failedState(`The payment ${payment.id} is ${String(payment.attributes["status"])} and cannot be refunded.`);
  }
  const method = (payment.attributes["source"] as { type?: string } | null)?.type ?? "";
  const rules = METHOD_RULES[method] ?? {};
  if (rules.refundable === false) {
    // UNCONF: PayMongo documents that QR Ph and UBP payments cannot be refunded, not the code it
    // answers; `payment_method_not_allowed` (its refund-errors page's code for a method it will
    // not refund, there installments) is the likeliest.
    throw invalid("payment_id", "payment_method_not_allowed", `Payments made with ${method} cannot be refunded.`);
  }
  const open = openRefundOf(sim, payment);
  if (open) {
    const state = open.attributes["status"] as string;
    throw new PaymongoSimulatorError(400, [
      { code: `resource_${state}_state`, detail: `The refund ${open.id} of this payment is still ${state}.`, source: { pointer: "attributes.payment_id", attribute: "payment_id" } },
    ]);
  }
  const paidAt = payment.attributes["paid_at"] as number | null;
  if (rules.windowDays !== undefined && paidAt !== null && unixNow() > paidAt + rules.windowDays * DAY_SECONDS) {
    throw invalid("payment_id", "allowed_date_exceeded", `Payments made with ${method} can only be refunded within ${rules.windowDays} days.`);
  }
  const left = refundableAmount(sim.state, payment);
  if (amount! > left) {
    throw invalid("amount", "parameter_above_maximum", `amount cannot be more than ${left}, what is left to refund of the payment.`);
  }
  if (rules.fullOnly && amount !== payment.attributes["amount"]) {
    throw invalid("amount", "parameter_above_maximum", `Payments made with ${method} can only be refunded in full.`);
  }
  const refund = sim.state.create(req.account, "ref", TYPE, {
    amount,
    balance_transaction_id: null,
    currency: payment.attributes["currency"],
    metadata: metadata ?? null,
    notes: notes ?? null,
    payment_id: payment.id,
    payout_id: null,
    reason,
    status: "pending",
    available_at: null,
    refunded_at: null,
  });
  (payment.refs["refunds"] as string[]).push(refund.id);
  return { data: sim.state.render(refund) };
}

export function getRefund(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}

/** `GET /v1/refunds[?payment_id=]`: the filter is UNCONF at PayMongo; the simulator supports it. */
export function listRefunds(sim: Simulation, req: ApiRequest) {
  const paymentId = req.query.get("payment_id");
  const refunds = sim.state.list(req.account, TYPE, (o) => !paymentId || o.attributes["payment_id"] === paymentId);
  return { data: refunds.map((o) => sim.state.render(o)), has_more: false };
}

/** The payment's refund still pending or processing, if any: PayMongo takes one at a time. */
function openRefundOf(sim: Simulation, payment: StoredObject): StoredObject | undefined {
  return (payment.refs["refunds"] as string[])
    .map((id) => sim.state.find(id))
    .find((refund) => refund?.attributes["status"] === "pending" || refund?.attributes["status"] === "processing");
}

/** PayMongo settles a refund later: `payment.refund.updated`, and `payment.refunded` when it went through. */
export function settleRefund(sim: Simulation, refund: StoredObject, status: "succeeded" | "failed"): void {
  const current = refund.attributes["status"];
  if (current !== "pending" && current !== "processing") {
    throw failedState(`The refund ${refund.id} is already ${String(current)}.`);
  }
  if (status !== "succeeded" && status !== "failed") {
    throw invalid("status", "parameter_invalid", "status must be succeeded or failed.");
  }
  sim.state.update(refund, { status, refunded_at: status === "succeeded" ? unixNow() : null });
  sim.state.emit("payment.refund.updated", refund);
  if (status === "succeeded") {
    const payment = sim.state.find(refund.attributes["payment_id"] as string)!;
    sim.state.update(payment, {});
    // The Payment, with its refunds[] (paymongo.md §5: `payment.refunded` carries the payment).
    sim.state.emit("payment.refunded", payment);
    // A link whose payment is refunded in full reads `refunded` (paymongo.md §6: unpaid/paid/refunded).
    const link = sim.state.all("link").find((o) => (o.refs["payments"] as string[]).includes(payment.id));
    if (link && refundableAmount(sim.state, payment) === 0) sim.state.update(link, { status: "refunded" });
  }
}

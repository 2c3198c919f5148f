import { failedState, invalid } from "../api-error.js";
import { AttributeReader } from "../attribute-reader.js";
import { unixNow } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { StoredObject } from "../state.js";
import { refundableAmount } from "./payments.js";

const TYPE = "refund";
const MINIMUM_AMOUNT = 100;
const REASONS = ["duplicate", "fraudulent", "requested_by_customer", "others"] as const;

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
  const left = refundableAmount(sim.state, payment);
  if (amount! > left) {
    throw invalid("amount", "parameter_above_maximum", `amount cannot be more than ${left}, what is left to refund of the payment.`);
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
    sim.state.emit("payment.refunded", payment);
  }
}

import { failedState, invalid } from "../api-error.js";
import { feeFor } from "../payment-methods-catalogue.js";
import { newId, unixNow } from "../ids.js";
import type { Account, SimulatorState, StoredObject } from "../state.js";

export interface NewPayment {
  amount: number;
  currency: string;
  description: string | null;
  method: string;
  status: "paid" | "failed";
  paymentIntentId: string | null;
  metadata: Record<string, string> | null;
  origin: "api" | "checkout" | "links";
  failedCode?: string;
  failedMessage?: string;
}

/** A `pay_…` payment, as paying or failing a session, an intent or a link leaves behind. */
export function createPayment(state: SimulatorState, account: Account, p: NewPayment): StoredObject {
  const paid = p.status === "paid";
  const fee = paid ? feeFor(p.method, p.amount) : 0;
  return state.create(
    account,
    "pay",
    "payment",
    {
      access_url: null,
      amount: p.amount,
      balance_transaction_id: paid ? newId("bal_txn") : null,
      billing: null,
      currency: p.currency,
      description: p.description,
      disputed: false,
      external_reference_number: null,
      fee,
      foreign_fee: 0,
      net_amount: p.amount - fee,
      origin: p.origin,
      payment_intent_id: p.paymentIntentId,
      payout: null,
      source: { id: newId("src"), type: p.method },
      statement_descriptor: "PAYMONGO SIMULATOR",
      status: p.status,
      tax_amount: null,
      metadata: p.metadata,
      refunds: [],
      taxes: [],
      available_at: paid ? unixNow() + 3 * 24 * 3600 : null,
      paid_at: paid ? unixNow() : null,
      failed_code: p.failedCode ?? null,
      failed_message: p.failedMessage ?? null,
    },
    { refunds: [] },
  );
}

/** What can still be refunded: the amount less every refund that has not failed. */
export function refundableAmount(state: SimulatorState, payment: StoredObject): number {
  const refunds = (payment.refs["refunds"] as string[]).map((id) => state.find(id));
  const taken = refunds
    .filter((r) => r && r.attributes["status"] !== "failed")
    .reduce((sum, r) => sum + (r!.attributes["amount"] as number), 0);
  return (payment.attributes["amount"] as number) - taken;
}

/** Moves a paid payment's `paid_at` (a control: ages it, so tests reach PayMongo's refund windows). */
export function setPaidAt(state: SimulatorState, payment: StoredObject, paidAt: number): void {
  if (payment.attributes["status"] !== "paid") throw failedState(`The payment ${payment.id} is not paid.`);
  if (!Number.isInteger(paidAt) || paidAt <= 0) throw invalid("paid_at", "parameter_invalid", "paid_at must be a Unix time in seconds.");
  state.update(payment, { paid_at: paidAt });
}

import { readPesos, toCentavos } from "../amounts.js";
import { notFound, validationError, XenditSimulatorError } from "../api-error.js";
import type { Account } from "../auth.js";
import { BodyReader } from "../body-reader.js";
import { channelOf } from "../channels.js";
import { newId } from "../ids.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";
import { invoiceCentavos, isPaidInvoice } from "./invoices.js";

export const REFUND_REASONS = ["FRAUDULENT", "DUPLICATE", "REQUESTED_BY_CUSTOMER", "CANCELLATION", "OTHERS"] as const;

/**
 * What a refund is of: a SUCCEEDED payment request, or a paid invoice (`invoice_id`, which the
 * official SDK's refund takes [O xendit.md §5]). Its channel decides whether it can be refunded.
 */
interface Refunded {
  stored: Stored;
  channelCode: unknown;
  paid: boolean;
  centavos: number;
  paymentId: unknown;
}

function refundedOf(sim: Simulation, account: Account, read: BodyReader): Refunded {
  if (read.has("payment_request_id") === read.has("invoice_id")) throw validationError("Name either payment_request_id or invoice_id.");
  const [field, kind] = read.has("invoice_id") ? (["invoice_id", "invoice"] as const) : (["payment_request_id", "payment_request"] as const);
  const id = read.string(field);
  const stored = sim.state.find(id);
  if (!stored || stored.kind !== kind || stored.account.owner !== account.owner) throw notFound(id);
  if (kind === "invoice") {
    const paid = isPaidInvoice(stored);
    return { stored, channelCode: stored.body["payment_channel"], paid, centavos: paid ? invoiceCentavos(stored) : 0, paymentId: stored.body["payment_id"] };
  }
  return {
    stored,
    channelCode: stored.body["channel_code"],
    paid: stored.body["status"] === "SUCCEEDED",
    centavos: toCentavos(stored.body["request_amount"] as number),
    paymentId: stored.body["latest_payment_id"],
  };
}

/**
 * `POST /refunds` [O]: a refund of a SUCCEEDED payment request or a paid invoice, the full amount
 * when `amount` is left out, PENDING at create (200). One pending refund at a time
 * (REFUND_IN_PROGRESS), never more than what is left (REFUND_AMOUNT_EXCEEDED), none on QRPH
 * (403 REFUND_NOT_SUPPORTED).
 */
export function createRefund(sim: Simulation, account: Account, body: Record<string, unknown>): Record<string, unknown> {
  const read = new BodyReader(body);
  const reason = read.oneOf("reason", REFUND_REASONS);
  if (read.has("currency")) read.oneOf("currency", ["PHP"]);
  const amount = read.has("amount") ? readPesos(read.raw("amount"), "amount", { positive: true }) : undefined;
  const reference = read.optionalString("reference_id") ?? null;
  const metadata = read.metadata();
  const target = refundedOf(sim, account, read);
  const { stored } = target;
  const isInvoice = stored.kind === "invoice";

  if (!target.paid) {
    throw new XenditSimulatorError(400, "INELIGIBLE_TRANSACTION_STATUS", `Only a ${isInvoice ? "PAID or SETTLED invoice" : "SUCCEEDED payment request"} can be refunded.`);
  }
  const channel = channelOf(target.channelCode);
  if (!channel.refundable) throw new XenditSimulatorError(403, "REFUND_NOT_SUPPORTED", `${channel.code} payments cannot be refunded.`);
  const pending = sim.state.all("refund", (r) => r.internal["of"] === stored.id && r.body["status"] === "PENDING");
  if (pending.length > 0) throw new XenditSimulatorError(400, "REFUND_IN_PROGRESS", "Another refund of this payment is still pending.");
  const refunded = stored.internal["refundedCentavos"] as number;
  const left = target.centavos - refunded;
  const centavos = amount === undefined ? left : toCentavos(amount);
  if (centavos > left || centavos === 0) {
    throw new XenditSimulatorError(400, "REFUND_AMOUNT_EXCEEDED", `At most ${left / 100} PHP of this payment is left to refund.`);
  }
  stored.internal["refundedCentavos"] = refunded + centavos;

  const id = newId("rfd");
  const refund = sim.state.put("refund", account, id, {
    id,
    payment_request_id: isInvoice ? null : stored.id,
    invoice_id: isInvoice ? stored.id : null,
    payment_id: target.paymentId,
    reference_id: reference,
    channel_code: channel.code,
    currency: "PHP",
    amount: centavos / 100,
    status: "PENDING",
    reason,
    failure_code: null,
    refund_fee_amount: null,
    metadata,
  });
  refund.internal["of"] = stored.id;
  const settleAfter = sim.settings.refundSettlementMs;
  if (settleAfter !== null) {
    sim.timers.after(settleAfter, () => {
      if (refund.body["status"] === "PENDING") settleRefund(sim, refund, "SUCCEEDED");
    });
  }
  return sim.state.view(refund);
}

/**
 * A PENDING refund settles: SUCCEEDED (`refund.succeeded`) or FAILED with a failure code, its
 * amount free to refund again (`refund.failed`) [O].
 */
export function settleRefund(sim: Simulation, refund: Stored, status: "SUCCEEDED" | "FAILED", failureCode = "REFUND_FAILED"): void {
  if (refund.body["status"] !== "PENDING") {
    throw new XenditSimulatorError(400, "INELIGIBLE_TRANSACTION_STATUS", `The refund is ${String(refund.body["status"])}, not PENDING.`);
  }
  if (status === "FAILED") {
    const of = sim.state.find(refund.internal["of"] as string)!;
    of.internal["refundedCentavos"] = (of.internal["refundedCentavos"] as number) - toCentavos(refund.body["amount"] as number);
  }
  sim.state.update(refund, { status, failure_code: status === "FAILED" ? failureCode : null });
  sim.state.emit(status === "SUCCEEDED" ? "refund.succeeded" : "refund.failed", refund);
}

import { readPesos, toCentavos } from "../amounts.js";
import { notFound, XenditSimulatorError } from "../api-error.js";
import type { Account } from "../auth.js";
import { BodyReader } from "../body-reader.js";
import { channelOf } from "../channels.js";
import { newId } from "../ids.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";

export const REFUND_REASONS = ["FRAUDULENT", "DUPLICATE", "REQUESTED_BY_CUSTOMER", "CANCELLATION", "OTHERS"] as const;

/**
 * `POST /refunds` [O]: a refund of a SUCCEEDED payment request, the full amount when `amount` is
 * left out, PENDING at create (200). One pending refund at a time (REFUND_IN_PROGRESS), never more
 * than what is left (REFUND_AMOUNT_EXCEEDED), none on QRPH (403 REFUND_NOT_SUPPORTED).
 */
export function createRefund(sim: Simulation, account: Account, body: Record<string, unknown>): Record<string, unknown> {
  const read = new BodyReader(body);
  const requestId = read.string("payment_request_id");
  const reason = read.oneOf("reason", REFUND_REASONS);
  if (read.has("currency")) read.oneOf("currency", ["PHP"]);
  const amount = read.has("amount") ? readPesos(read.raw("amount"), "amount", { positive: true }) : undefined;
  const reference = read.optionalString("reference_id") ?? null;
  const metadata = read.metadata();
  const request = sim.state.find(requestId);
  if (!request || request.kind !== "payment_request" || request.account.owner !== account.owner) throw notFound(requestId);

  const channel = channelOf(request.body["channel_code"]);
  if (!channel.refundable) throw new XenditSimulatorError(403, "REFUND_NOT_SUPPORTED", `${channel.code} payments cannot be refunded.`);
  if (request.body["status"] !== "SUCCEEDED") {
    throw new XenditSimulatorError(400, "INELIGIBLE_TRANSACTION_STATUS", "Only a SUCCEEDED payment request can be refunded.");
  }
  const pending = sim.state.all("refund", (r) => r.body["payment_request_id"] === requestId && r.body["status"] === "PENDING");
  if (pending.length > 0) throw new XenditSimulatorError(400, "REFUND_IN_PROGRESS", "Another refund of this payment is still pending.");
  const refunded = request.internal["refundedCentavos"] as number;
  const left = toCentavos(request.body["request_amount"] as number) - refunded;
  const centavos = amount === undefined ? left : toCentavos(amount);
  if (centavos > left || centavos === 0) {
    throw new XenditSimulatorError(400, "REFUND_AMOUNT_EXCEEDED", `At most ${left / 100} PHP of this payment is left to refund.`);
  }
  request.internal["refundedCentavos"] = refunded + centavos;

  const id = newId("rfd");
  const refund = sim.state.put("refund", account, id, {
    id,
    payment_request_id: requestId,
    payment_id: request.body["latest_payment_id"],
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
    const request = sim.state.any(refund.body["payment_request_id"] as string, "payment_request");
    request.internal["refundedCentavos"] = (request.internal["refundedCentavos"] as number) - toCentavos(refund.body["amount"] as number);
  }
  sim.state.update(refund, { status, failure_code: status === "FAILED" ? failureCode : null });
  sim.state.emit(status === "SUCCEEDED" ? "refund.succeeded" : "refund.failed", refund);
}

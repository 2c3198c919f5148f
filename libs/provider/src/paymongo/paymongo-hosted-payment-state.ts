import { CURRENCY } from "@bayad/kit";
import type { HostedPaymentState } from "../port.js";
import type { PaymongoLinkState } from "./paymongo-resources.js";

/**
 * A PayMongo link as the port's hosted payment: paid when the link says so or names a paid
 * payment (the payment's id, method and time then come with it: refunds need them), else open.
 * The fee is the paid payment's, else the link's own `fee` and `taxes[]`.
 * PayMongo's links do not expire, so none reads as expired; an archived link stays open (it can
 * be unarchived). An amount PayMongo leaves out reads as 0, as for its other resources.
 */
export function paymongoHostedPaymentState(link: PaymongoLinkState): HostedPaymentState {
  const paid = link.payments.find((payment) => payment.status === "paid");
  const base = { amountMinor: link.amount ?? 0, currency: link.currency ?? CURRENCY };
  if (link.status !== "paid" && !paid) return { status: "open", ...base };
  return {
    status: "paid",
    ...base,
    ...(paid ? { providerPaymentId: paid.id } : {}),
    ...(paid?.method !== undefined ? { method: paid.method } : {}),
    ...(paid?.paymentMethod !== undefined ? { paymentMethod: paid.paymentMethod } : {}),
    ...((paid?.fee ?? link.fee) !== undefined ? { fee: paid?.fee ?? link.fee } : {}),
    ...(paid?.paidAt !== undefined ? { paidAt: paid.paidAt } : {}),
  };
}

import { PaymentLinkStatusSchema, type PaymentLink } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { dateField, moneyToJson, optionalField, required, type PublicUrl } from "./json.js";

export function paymentLinkToJson(link: PaymentLink | undefined, publicUrl: PublicUrl) {
  const l = required(link, "payment link");
  return {
    paymentLinkId: l.paymentLinkId,
    referenceId: l.referenceId,
    amount: moneyToJson(l.amount),
    ...optionalField("description", l.description),
    ...optionalField("remarks", l.remarks),
    ...(l.url ? { url: publicUrl(l.url) } : {}),
    status: enumToText(PaymentLinkStatusSchema, l.status),
    active: l.active,
    archived: l.archived,
    ...optionalField("referenceNumber", l.referenceNumber),
    // The link stays `paid` once refunded (its statuses are the contract's): these say what came back.
    ...(l.refundedAmount
      ? { refundedAmount: moneyToJson(l.refundedAmount), refunded: l.refundedAmount.amountMinor >= (l.amount?.amountMinor ?? 0n) }
      : {}),
    metadata: l.metadata,
    ...dateField("createdAt", l.createdAt),
    ...dateField("updatedAt", l.updatedAt),
  };
}

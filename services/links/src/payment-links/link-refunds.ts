import { retryVersionConflicts, VersionConflict, writeNextVersion } from "@bayad/events";
import type { PaymentLinkRecord } from "./payment-link.js";
import { linkMover, type PaymentLinksDeps } from "./payment-links.js";

/** A succeeded refund of a payment link, as the payments service announced it. */
export interface LinkRefund {
  projectId: string;
  environment: string;
  linkId: string;
  refundId: string;
  amountMinor: number;
}

/**
 * Records a succeeded refund on the link it refunded (a new version, announced as
 * `payment_link.refunded`), so the link shows what was given back. Idempotent by refund id: an
 * announcement delivered again changes nothing. A link of another project or environment, or
 * unknown here, is left alone (false).
 */
export async function recordLinkRefund(deps: PaymentLinksDeps, refund: LinkRefund): Promise<boolean> {
  return retryVersionConflicts(async () => {
    const record = await deps.repository.findByIdForPage(refund.linkId);
    if (!record || record.projectId !== refund.projectId || record.environment !== refund.environment) return false;
    if (record.refunds?.[refund.refundId] !== undefined) return false;
    const extra: Partial<PaymentLinkRecord> = { refunds: { ...record.refunds, [refund.refundId]: refund.amountMinor } };
    const written = await deps.store.transaction((session) => writeNextVersion(session, linkMover(deps), record, "refunded", { extra }));
    if (written === false) throw new VersionConflict(record._id);
    return true;
  });
}

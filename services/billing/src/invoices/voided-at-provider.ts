import type { ResolvedProviderAccounts } from "@bayad/provider";
import type { BillingDeps } from "../billing-deps.js";

/** Voided invoices handled per round. */
const BATCH = 50;

/**
 * A subscription that ends voids its unpaid invoices inside the billing transaction, where
 * PayMongo cannot be called; but an invoice's PayMongo link stays payable until it is archived
 * there. So the provider reconciler's lease holder archives the links of voided invoices after
 * the fact. One paid at PayMongo before that (money that moved for a void invoice) is logged as an
 * error for the operator to refund in PayMongo's dashboard: Bayad does not pay a void invoice.
 * Returns how many links it archived.
 */
export async function archiveVoidedInvoiceLinks(
  deps: BillingDeps,
  accounts: Pick<ResolvedProviderAccounts, "paymongoOf" | "setLinkArchived">,
): Promise<number> {
  let archived = 0;
  for (const invoice of await deps.invoices.findVoidedWithLiveProviderLinks(BATCH)) {
    const accountId = invoice.providerAccountId!;
    const reference = invoice.providerReference;
    const provider = await accounts.paymongoOf(accountId);
    if (!provider || !reference) {
      deps.logger.warn({ invoiceId: invoice._id, providerAccountId: accountId }, "the provider account of a voided invoice is gone: its link cannot be archived");
      await deps.invoices.markProviderLinkArchived(invoice._id);
      continue;
    }
    const link = await provider.retrieveLinkById(reference);
    const paid = link.payments.find((payment) => payment.status === "paid");
    if (link.status === "paid" || paid) {
      deps.logger.error(
        { invoiceId: invoice._id, providerAccountId: accountId, providerLinkId: reference, providerPaymentId: paid?.id },
        "a voided invoice was paid at PayMongo: refund the payer there (Bayad does not pay a void invoice)",
      );
    }
    await accounts.setLinkArchived(accountId, reference, true);
    await deps.invoices.markProviderLinkArchived(invoice._id);
    archived += 1;
  }
  return archived;
}

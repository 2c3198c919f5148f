import type { ProviderAccounts } from "@bayad/provider";
import type { BillingDeps } from "../billing-deps.js";

/** Voided invoices handled per round. */
const BATCH = 50;

/**
 * A subscription that ends voids its unpaid invoices inside the billing transaction, where the
 * provider cannot be called; but an invoice's hosted payment stays payable at its provider until
 * it is closed there. So the provider reconciler's lease holder closes the hosted payments of
 * voided invoices after the fact (`closeHostedPayment`: PayMongo archives the link, Xendit
 * expires the invoice; one closed already is fine). One paid at the provider before that (money
 * that moved for a void invoice) is logged as an error for the operator to refund in the
 * provider's dashboard: Bayad does not pay a void invoice. Returns how many it closed.
 */
export async function closeVoidedInvoicesAtProvider(deps: BillingDeps, accounts: Pick<ProviderAccounts, "forAccount">): Promise<number> {
  let closed = 0;
  for (const invoice of await deps.invoices.findVoidedWithLiveProviderLinks(BATCH)) {
    const accountId = invoice.providerAccountId!;
    const reference = invoice.providerReference;
    const provider = await accounts.forAccount(accountId);
    if (!provider || !reference) {
      deps.logger.warn({ invoiceId: invoice._id, providerAccountId: accountId }, "the provider account of a voided invoice is gone: its hosted payment cannot be closed");
      await deps.invoices.markProviderLinkArchived(invoice._id);
      continue;
    }
    if (!provider.closeHostedPayment) throw new Error(`the ${provider.name} adapter cannot close a hosted payment`);
    const state = await provider.closeHostedPayment(reference);
    if (state.status === "paid") {
      deps.logger.error(
        { invoiceId: invoice._id, providerAccountId: accountId, provider: provider.name, providerReference: reference, providerPaymentId: state.providerPaymentId },
        "a voided invoice was paid at its provider: refund the payer there (Bayad does not pay a void invoice)",
      );
    }
    await deps.invoices.markProviderLinkArchived(invoice._id);
    closed += 1;
  }
  return closed;
}

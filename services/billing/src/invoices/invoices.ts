import { AppError, fromStoredMetadata, notFound, type CallerContext } from "@bayad/kit";
import { actOnce } from "@bayad/idempotency";
import type { Session } from "@bayad/store";
import { askProvider, chooseProvider, hostedPageResource, payerPaymentFacts, providerOfResource, type HostedPaymentSettlement, type PayerAction } from "@bayad/provider";
import type { BillingDeps } from "../billing-deps.js";
import { transactionRetryingConflicts } from "../transactions.js";
import { settleSubscriptionStatus } from "../subscriptions/subscription-writes.js";
import { firstDunningAt } from "../dunning/dunning-schedule.js";
import { dueDateOf, invoicePaymentOf, invoiceStates, type InvoiceRecord } from "./invoice.js";
import { moveInvoice, writeFailedPayment } from "./invoice-writes.js";

export async function getInvoice(deps: BillingDeps, caller: CallerContext, invoiceId: string): Promise<InvoiceRecord> {
  const record = await deps.invoices.findById(caller, invoiceId);
  if (!record) throw notFound("invoice", invoiceId);
  return record;
}

/**
 * Finalizes a draft invoice: asks the provider for its hosted payment page (outside any
 * transaction) and then records it, making the invoice `open`. The provider is the project's own
 * account when it has one for the environment (a PayMongo link: its checkout URL becomes
 * hostedInvoiceUrl), else the environment's default (the sandbox, whose page is deterministic per
 * invoice). Asking twice is harmless either way: at PayMongo the invoice-keyed Idempotency-Key
 * answers with the same link for 24 h, and past them a second link is made, but only the
 * recorded one's URL is ever shown, so the other, which no payer saw, cannot be paid. Billing calls this right after the commit that wrote
 * the draft; the clock calls it for drafts a crash left behind. If the invoice's period closed
 * while it was a draft, it is due already and goes straight on to `past_due`.
 */
async function finalizeInvoice(deps: BillingDeps, invoice: InvoiceRecord): Promise<InvoiceRecord> {
  if (invoice.status !== "draft") return invoice;
  if (invoice.amountMinor === 0) return settleFreeInvoice(deps, invoice);
  const subscription = await deps.subscriptions.findByIdUnscoped(invoice.subscriptionId);
  if (!subscription) throw new Error(`invoice ${invoice._id} has no subscription ${invoice.subscriptionId}`);
  const { provider, providerAccountId } = await chooseProvider(deps.providers, invoice);
  const page = await askProvider(() =>
    provider.createHostedPayment(
      {
        kind: "invoice",
        resourceId: invoice._id,
        referenceId: subscription.referenceId,
        amount: { amountMinor: invoice.amountMinor, currency: invoice.currency },
        description: `${subscription.planName}, period ${invoice.periodNumber}`,
      },
      // No request caused it (the clock bills too), so the invoice itself keys the provider call.
      { environment: invoice.environment, idempotencyKey: invoice._id },
    ),
  );
  // Its reminders start by the project's dunning schedule as it stands now (dunning/).
  const nextDunningAt = firstDunningAt((await deps.settings.get(invoice.projectId)).dunning, dueDateOf(invoice));
  return transactionRetryingConflicts(deps.store, async (session) => {
    const current = await deps.invoices.findByIdUnscoped(invoice._id, session);
    if (!current || current.status !== "draft") return current ?? invoice;
    const opened = await moveInvoice(deps, session, current, "finalize", {
      hostedInvoiceUrl: page.url,
      pageToken: page.pageToken,
      providerReference: page.providerReference,
      ...(providerAccountId !== undefined ? { providerAccountId } : {}),
      dunningStep: 0,
      ...(nextDunningAt ? { nextDunningAt } : {}),
    });
    const owner = await deps.subscriptions.findByIdUnscoped(current.subscriptionId, session);
    if (!owner) return opened;
    const finalized = owner.cyclesBilled <= opened.periodNumber ? opened : await moveInvoice(deps, session, opened, "fall_due");
    // Written even when its period is still open: closing the period reads this invoice (a draft
    // until now) and writes the subscription, so both writing it makes them conflict. Otherwise,
    // under snapshot isolation, both could commit: this invoice open in a period already closed.
    await settleSubscriptionStatus(deps, session, owner);
    return finalized;
  });
}

/**
 * An invoice the subscription's credit balance covers entirely asks nobody for anything: it is
 * finalized and paid at once, without a payment page (its payment names no provider payment).
 */
function settleFreeInvoice(deps: BillingDeps, invoice: InvoiceRecord): Promise<InvoiceRecord> {
  return transactionRetryingConflicts(deps.store, async (session) => {
    const current = await deps.invoices.findByIdUnscoped(invoice._id, session);
    if (!current || current.status !== "draft") return current ?? invoice;
    const opened = await moveInvoice(deps, session, current, "finalize");
    const paid = await moveInvoice(deps, session, opened, "pay", { providerPayment: { paidAt: deps.now() } });
    const owner = await deps.subscriptions.findByIdUnscoped(current.subscriptionId, session);
    if (owner) await settleSubscriptionStatus(deps, session, owner);
    return paid;
  });
}

/**
 * Finalizes an invoice just billed (its draft committed). A failure leaves it a draft for the
 * billing clock to finalize later, so it is logged rather than failing what billed it.
 */
export async function finalizeBilledInvoice(deps: BillingDeps, invoice: InvoiceRecord): Promise<void> {
  try {
    await finalizeInvoice(deps, invoice);
  } catch (error) {
    deps.logger.warn({ err: error, invoiceId: invoice._id }, "invoice left as draft for the billing clock to finalize");
  }
}

/** Finalizes drafts left behind (oldest first); returns how many it finalized. */
export async function finalizeDrafts(deps: BillingDeps, limit = 100): Promise<number> {
  let finalized = 0;
  for (const draft of await deps.invoices.findDrafts(limit)) {
    try {
      if ((await finalizeInvoice(deps, draft)).status !== "draft") finalized += 1;
    } catch (error) {
      deps.logger.warn({ err: error, invoiceId: draft._id }, "draft invoice not finalized yet");
    }
  }
  return finalized;
}

/**
 * What the payer did, decided by the provider (the sandbox declines its decline scenario, which
 * a plan selects through its metadata, copied onto the subscription). Paid → `paid`; a failed
 * attempt makes an open invoice `past_due` (a past-due one stays so) and is announced as
 * `invoice.payment_failed`, every time. Only an open or
 * past-due invoice can be paid at all. The subscription's status is re-derived in the same
 * transaction.
 */
async function applyPayerAction(
  deps: BillingDeps,
  invoice: InvoiceRecord,
  action: PayerAction,
  claim?: (session: Session, result: InvoiceRecord) => Promise<void>,
): Promise<InvoiceRecord> {
  // An invoice made at a provider account reaches that account, whose adapter refuses simulated payer actions.
  const provider = await providerOfResource(deps.providers, invoice);
  return transactionRetryingConflicts(deps.store, async (session) => {
    const current = await deps.invoices.findByIdUnscoped(invoice._id, session);
    if (!current) throw notFound("invoice", invoice._id);
    invoiceStates.next(current.status, "pay");
    const owner = await deps.subscriptions.findByIdUnscoped(current.subscriptionId, session);
    const amount = { amountMinor: current.amountMinor, currency: current.currency };
    const decided = provider.decidePayment(amount, fromStoredMetadata(owner?.planMetadata), action);
    let next: InvoiceRecord = current;
    // The sandbox's payment has no id of its own: refunds of the invoice name the invoice.
    if (decided === "paid") {
      next = await moveInvoice(deps, session, current, "pay", { providerPayment: { ...invoicePaymentOf(undefined, deps.now()), ...payerPaymentFacts(provider, amount) } });
    }
    else next = await writeFailedPayment(deps, session, current);
    if (next.status !== current.status && owner) await settleSubscriptionStatus(deps, session, owner);
    await claim?.(session, next);
    return next;
  });
}

/** Test helper: pay or fail a test-mode invoice as its payer would; a retry with the key answers the same. */
export async function simulateInvoiceOutcome(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  invoiceId: string,
  action: PayerAction,
): Promise<InvoiceRecord> {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<InvoiceRecord>(deps.keys, caller, `${action}Invoice`, invoiceId, async (claim) =>
    applyPayerAction(deps, await getInvoice(deps, caller, invoiceId), action, claim),
  );
}

/** The sandbox's hosted invoice page: what it shows. */
export async function getHostedInvoice(deps: BillingDeps, invoiceId: string, pageToken: string) {
  const invoice = hostedPageResource(await deps.invoices.findByIdUnscoped(invoiceId), pageToken);
  const subscription = await deps.subscriptions.findByIdUnscoped(invoice.subscriptionId);
  return { invoice, planName: subscription?.planName ?? "" };
}

/** The sandbox's hosted invoice page: the payer pays or gives up. */
export async function submitHostedInvoice(deps: BillingDeps, invoiceId: string, pageToken: string, action: PayerAction) {
  return applyPayerAction(deps, hostedPageResource(await deps.invoices.findByIdUnscoped(invoiceId), pageToken), action);
}

/**
 * The provider says the invoice's hosted payment was paid (the reconciler read it at the
 * invoice's provider account): an open or past-due invoice becomes `paid`, and its subscription's
 * status follows, as a payer's payment on the sandbox's page does. Idempotent: an invoice already
 * paid (or void, or not of that account) is left as it is (false).
 */
export async function applyProviderInvoicePayment(
  deps: BillingDeps,
  providerAccountId: string,
  invoiceId: string,
  payment?: HostedPaymentSettlement,
): Promise<boolean> {
  return transactionRetryingConflicts(deps.store, async (session) => {
    const current = await deps.invoices.findByIdUnscoped(invoiceId, session);
    if (!current || current.providerAccountId !== providerAccountId || (current.status !== "open" && current.status !== "past_due")) return false;
    await moveInvoice(deps, session, current, "pay", { providerPayment: invoicePaymentOf(payment, deps.now()) });
    const owner = await deps.subscriptions.findByIdUnscoped(current.subscriptionId, session);
    if (owner) await settleSubscriptionStatus(deps, session, owner);
    return true;
  });
}

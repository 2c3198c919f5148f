import { writeMove, writeNextVersion, type ResourceMover } from "@bayad/events";
import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { mustLand, mustWriteChange } from "../transactions.js";
import { invoiceStates, invoiceToProto, type InvoiceAction, type InvoiceRecord, type InvoiceState } from "./invoice.js";

/** How invoices are written: their collection, state table and events (`invoice.<status>`). */
function invoiceMover(deps: BillingDeps): ResourceMover<InvoiceRecord, InvoiceState, InvoiceAction> {
  return {
    store: deps.store,
    collection: deps.invoices.collection,
    outbox: deps.outbox,
    states: invoiceStates,
    resource: "invoice",
    snapshot: (record) => ({ case: "invoice", value: invoiceToProto(record) }),
    now: deps.now,
  };
}

/**
 * The subscription's customer for an invoice written before invoices kept it, so every later
 * snapshot of it names the customer too (empty: the invoice has it already, or no subscription).
 */
async function customerFill(deps: BillingDeps, session: Session, invoice: InvoiceRecord): Promise<Partial<InvoiceRecord>> {
  if (invoice.customerId !== undefined) return {};
  const subscription = await deps.subscriptions.findByIdUnscoped(invoice.subscriptionId, session);
  return subscription ? { customerId: subscription.customerId } : {};
}

/**
 * Writes a new invoice (version 1, a draft) with its event `invoice.<status>` inside `session`.
 * A second invoice for the same period breaks the unique index, aborting the transaction.
 */
export async function writeInvoice(deps: BillingDeps, session: Session, record: InvoiceRecord): Promise<InvoiceRecord> {
  const mover = invoiceMover(deps);
  await mustWriteChange(session, {
    collection: mover.collection,
    outbox: mover.outbox,
    record,
    event: { name: `${mover.resource}.${record.status}`, caller: record, snapshot: mover.snapshot(record) },
  });
  return record;
}

/**
 * Applies one move of the invoice state table inside `session` (409 INVALID_STATE_TRANSITION if
 * it is not allowed); VersionConflict aborts the transaction if the invoice changed since it was read.
 */
export async function moveInvoice(
  deps: BillingDeps,
  session: Session,
  invoice: InvoiceRecord,
  action: InvoiceAction,
  given: Partial<InvoiceRecord> = {},
): Promise<InvoiceRecord> {
  const extra = { ...(await customerFill(deps, session, invoice)), ...given };
  // A paid or void invoice is dunned no more: its schedule stops in the transaction that pays or voids it.
  const stopsDunning = (action === "pay" || action === "void") && invoice.nextDunningAt !== undefined;
  if (!stopsDunning) return mustLand(writeMove(session, invoiceMover(deps), invoice, action, { extra }), invoice);
  return mustLand(
    writeMove(session, invoiceMover(deps), invoice, action, {
      extra: { ...extra, nextDunningAt: undefined },
      also: (next, inSession) => deps.invoices.stopDunning(next, inSession),
    }),
    invoice,
  );
}

/**
 * A dunning step of the invoice taken (its reminder's messages claimed in the same transaction):
 * the next version, announced as `invoice.reminder_sent`, counts the step and says when the next
 * is due (none after the last). At the last step an invoice still `open` is past due (the last
 * step is never before the due date).
 */
export async function writeDunningStep(
  deps: BillingDeps,
  session: Session,
  invoice: InvoiceRecord,
  dunningStep: number,
  nextDunningAt: Date | undefined,
): Promise<InvoiceRecord> {
  const status = nextDunningAt === undefined && invoice.status === "open" ? invoiceStates.next(invoice.status, "fall_due") : invoice.status;
  return mustLand(
    writeNextVersion(session, invoiceMover(deps), invoice, "reminder_sent", {
      extra: { ...(await customerFill(deps, session, invoice)), status, dunningStep, nextDunningAt },
      ...(nextDunningAt === undefined ? { also: (next: InvoiceRecord, inSession: Session) => deps.invoices.stopDunning(next, inSession) } : {}),
    }),
    invoice,
  );
}

/**
 * A payment attempt of the invoice failed: an open invoice falls past due, a past-due one stays
 * so, and either way the attempt is a change of its own, announced as `invoice.payment_failed`
 * (consumers are told of every failed attempt, as of every payment).
 */
export async function writeFailedPayment(deps: BillingDeps, session: Session, invoice: InvoiceRecord): Promise<InvoiceRecord> {
  const status = invoice.status === "open" ? invoiceStates.next(invoice.status, "fall_due") : invoice.status;
  const extra = { ...(await customerFill(deps, session, invoice)), status };
  return mustLand(writeNextVersion(session, invoiceMover(deps), invoice, "payment_failed", { extra }), invoice);
}

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
export function moveInvoice(
  deps: BillingDeps,
  session: Session,
  invoice: InvoiceRecord,
  action: InvoiceAction,
  extra: Partial<InvoiceRecord> = {},
): Promise<InvoiceRecord> {
  return mustLand(writeMove(session, invoiceMover(deps), invoice, action, { extra }), invoice);
}

/**
 * A payment attempt of the invoice failed: an open invoice falls past due, a past-due one stays
 * so, and either way the attempt is a change of its own, announced as `invoice.payment_failed`
 * (consumers are told of every failed attempt, as of every payment).
 */
export function writeFailedPayment(deps: BillingDeps, session: Session, invoice: InvoiceRecord): Promise<InvoiceRecord> {
  const status = invoice.status === "open" ? invoiceStates.next(invoice.status, "fall_due") : invoice.status;
  return mustLand(writeNextVersion(session, invoiceMover(deps), invoice, "payment_failed", { extra: { status } }), invoice);
}

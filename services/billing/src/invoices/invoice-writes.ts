import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { mustWriteChange } from "../transactions.js";
import { invoiceStates, invoiceToProto, type InvoiceAction, type InvoiceRecord } from "./invoice.js";

/**
 * Writes one version of an invoice with its event `invoice.<status>` inside `session`. Version 1
 * is an insert (a second invoice for the same period breaks the unique index); later versions
 * land only over the version before, else VersionConflict aborts the transaction.
 */
export async function writeInvoice(deps: BillingDeps, session: Session, record: InvoiceRecord): Promise<InvoiceRecord> {
  await mustWriteChange(session, {
    collection: deps.invoices.collection,
    outbox: deps.outbox,
    record,
    event: { name: `invoice.${record.status}`, caller: record, snapshot: { case: "invoice", value: invoiceToProto(record) } },
  });
  return record;
}

/** Applies one move of the invoice state table (409 INVALID_STATE_TRANSITION if it is not allowed). */
export function moveInvoice(
  deps: BillingDeps,
  session: Session,
  invoice: InvoiceRecord,
  action: InvoiceAction,
  extra: Partial<InvoiceRecord> = {},
): Promise<InvoiceRecord> {
  return writeInvoice(deps, session, {
    ...invoice,
    ...extra,
    status: invoiceStates.next(invoice.status, action),
    aggregateVersion: invoice.aggregateVersion + 1,
    updatedAt: deps.now(),
  });
}

import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { billingPaths, resourcePath, type Invoice } from "./types";
import { useBillingQuery } from "./use-billing-query";

const columns: ColumnDef<Invoice, unknown>[] = [
  { header: "Period start", cell: ({ row }) => <DateTime iso={row.original.periodStart} /> },
  { header: "Period end", cell: ({ row }) => <DateTime iso={row.original.periodEnd} /> },
  { header: "Amount", cell: ({ row }) => <Money minor={row.original.amount.amountMinor} /> },
  { header: "Status", cell: ({ row }) => <Status value={row.original.status} /> },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.invoiceId} label="invoice id" /> },
];

/** A subscription's invoices, oldest period first; a row opens the invoice. */
export function InvoicesSection({ subscriptionId }: { subscriptionId: string }) {
  const [, navigate] = useLocation();
  const invoices = useBillingQuery<Invoice[]>("subscription-invoices", `${resourcePath(billingPaths.subscriptions, subscriptionId)}/invoices`);
  return (
    <section aria-labelledby="invoices-title">
      <h2 id="invoices-title">Invoices</h2>
      {invoices.isPending ? (
        <Loading what="invoices" />
      ) : invoices.error ? (
        <ErrorState error={invoices.error} retry={() => void invoices.refetch()} />
      ) : invoices.data.length === 0 ? (
        <EmptyState title="No invoices yet">Each period is billed by one invoice, issued when the period starts.</EmptyState>
      ) : (
        <DataTable
          caption="Invoices"
          columns={columns}
          rows={invoices.data}
          rowId={(invoice) => invoice.invoiceId}
          onOpen={(invoice) => navigate(`/invoices/${invoice.invoiceId}`)}
        />
      )}
    </section>
  );
}

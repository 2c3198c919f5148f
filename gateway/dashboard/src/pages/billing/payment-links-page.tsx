import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { useShownRows } from "./shown-rows";
import { billingPaths, type PaymentLink } from "./types";
import { useBillingQuery } from "./use-billing-query";

const columns: ColumnDef<PaymentLink, unknown>[] = [
  { header: "Reference", cell: ({ row }) => row.original.referenceId },
  { header: "Description", cell: ({ row }) => row.original.description ?? <span className="muted">—</span> },
  { header: "Amount", cell: ({ row }) => <Money minor={row.original.amount.amountMinor} /> },
  { header: "Status", cell: ({ row }) => <Status value={row.original.status} /> },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.paymentLinkId} label="payment link id" /> },
  { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
];

/** The project's payment links, newest first. */
export function PaymentLinksPage() {
  const [, navigate] = useLocation();
  const links = useBillingQuery<PaymentLink[]>("payment-links", billingPaths.paymentLinks);
  const shown = useShownRows(links.data);
  return (
    <section className="page billing-page">
      <h1>Payment links</h1>
      <p className="muted">Shareable links that each collect one payment.</p>
      {links.isPending ? (
        <Loading what="payment links" />
      ) : links.error ? (
        <ErrorState error={links.error} retry={() => void links.refetch()} />
      ) : links.data.length === 0 ? (
        <EmptyState title="No payment links in this project and environment">
          Create one with <code>POST {billingPaths.paymentLinks}</code> (a <code>referenceId</code>, an <code>amount</code> and a{" "}
          <code>description</code>) and share its <code>url</code>.
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Payment links"
            columns={columns}
            rows={shown.rows}
            rowId={(link) => link.paymentLinkId}
            onOpen={(link) => navigate(`/payment-links/${link.paymentLinkId}`)}
          />
          <LoadMore hasMore={shown.hasMore} loading={false} onLoad={shown.loadMore} what="payment links" />
        </>
      )}
    </section>
  );
}

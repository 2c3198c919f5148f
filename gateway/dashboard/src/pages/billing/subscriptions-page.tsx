import { useState } from "react";
import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { useCursorPages } from "../../api/cursor-pages";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { useActingFor, useProjectRequest } from "../../workspace";
import { OpenById } from "./open-by-id";
import { SubscriptionFilters, type SubscriptionFilter } from "./subscription-filters";
import { billingPaths, type SubscriptionRecord } from "./types";

const columns: ColumnDef<SubscriptionRecord, unknown>[] = [
  { header: "Reference", cell: ({ row }) => row.original.referenceId ?? <span className="muted">—</span> },
  { header: "Status", cell: ({ row }) => <Status value={row.original.status} /> },
  { header: "Amount", cell: ({ row }) => <Money minor={row.original.amountMinor} /> },
  { header: "Customer", cell: ({ row }) => <CopyId value={row.original.relatedResourceId} label="customer id" /> },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.id} label="subscription id" /> },
  { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
];

/**
 * The project's subscriptions, newest first, from the records feed (the API has no list of
 * subscriptions; the feed carries each one with its latest status).
 */
export function SubscriptionsPage() {
  const [, navigate] = useLocation();
  const projectRequest = useProjectRequest();
  const actingFor = useActingFor();
  const [filter, setFilter] = useState<SubscriptionFilter>({ status: "", referenceId: "" });
  const list = useCursorPages(["billing", actingFor?.projectId, actingFor?.environment, "subscriptions", filter], async (cursor) => {
    const page = await projectRequest<{ records: SubscriptionRecord[]; nextCursor?: string }>(billingPaths.records, {
      query: { type: "subscription", status: filter.status, referenceId: filter.referenceId, limit: 20, cursor },
    });
    return { items: page.records, nextCursor: page.nextCursor };
  });
  const filtered = filter.status !== "" || filter.referenceId !== "";

  return (
    <section className="page billing-page">
      <h1>Subscriptions</h1>
      <p className="muted">Customers billed by a plan each period; open one for its invoices.</p>
      <div className="billing-toolbar">
        <SubscriptionFilters value={filter} onChange={setFilter} />
        <OpenById />
      </div>
      {list.isPending ? (
        <Loading what="subscriptions" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={list.refetch} />
      ) : list.items.length === 0 ? (
        filtered ? (
          <EmptyState title="No subscriptions match these filters">Clear the status or reference to see every subscription.</EmptyState>
        ) : (
          <EmptyState title="No subscriptions in this project and environment">
            Subscribe a customer to a plan with <code>POST {billingPaths.subscriptions}</code> (<code>customerId</code>, the plan's id as{" "}
            <code>priceId</code>, a <code>referenceId</code>). New subscriptions show here moments after they are made.
          </EmptyState>
        )
      ) : (
        <>
          <DataTable
            caption="Subscriptions"
            columns={columns}
            rows={list.items}
            rowId={(record) => record.id}
            onOpen={(record) => navigate(`/subscriptions/${record.id}`)}
          />
          <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoad={list.loadMore} what="subscriptions" />
        </>
      )}
    </section>
  );
}

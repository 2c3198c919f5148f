import { useState } from "react";
import type { ColumnDef } from "@tanstack/react-table";
import { useQueryClient } from "@tanstack/react-query";
import { useCursorPages } from "../../api/cursor-pages";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Status } from "../../components/values";
import { useProjectRequest } from "../../workspace";
import { DeliveryOutcome } from "./delivery-outcome";
import { RedeliverButton } from "./redeliver-button";
import { endpointsPath, type WebhookDelivery } from "./types";
import { useWebhookKeys } from "./use-endpoint";

/** A pending attempt to be made within half a minute: the list is refreshed until it has been (not for a retry due in hours). */
function dueSoon(delivery: WebhookDelivery): boolean {
  if (delivery.status !== "pending") return false;
  return !delivery.nextAttemptAt || Date.parse(delivery.nextAttemptAt) - Date.now() < 30_000;
}

/** The endpoint's delivery attempts, newest first, with a Redeliver on each event's newest attempt made. */
export function DeliveriesSection({ webhookEndpointId }: { webhookEndpointId: string }) {
  const projectRequest = useProjectRequest();
  const keys = useWebhookKeys();
  const queryClient = useQueryClient();
  const [scheduled, setScheduled] = useState<WebhookDelivery>();
  const [failure, setFailure] = useState<unknown>();
  const list = useCursorPages(
    keys.deliveries(webhookEndpointId),
    async (cursor) => {
      const page = await projectRequest<{ deliveries: WebhookDelivery[]; nextCursor?: string }>(
        `${endpointsPath}/${encodeURIComponent(webhookEndpointId)}/deliveries`,
        { query: { limit: 20, cursor } },
      );
      return { items: page.deliveries, nextCursor: page.nextCursor };
    },
    { refreshWhile: (items) => items.some(dueSoon) },
  );

  // Redeliver is per event: offered on each event's newest attempt that was made (a scheduled
  // retry still pending does not hide it).
  const redeliverable = new Set<string>();
  const offered = new Set<string>();
  for (const delivery of list.items) {
    if (delivery.status === "pending" || offered.has(delivery.eventId)) continue;
    redeliverable.add(delivery.deliveryId);
    offered.add(delivery.eventId);
  }
  const failed = list.items.filter((delivery) => delivery.status === "failed").length;

  const columns: ColumnDef<WebhookDelivery, unknown>[] = [
    {
      header: "Event",
      cell: ({ row }) => (
        <span className="delivery-event">
          <code>{row.original.eventType}</code>
          <CopyId value={row.original.eventId} label="event id" />
        </span>
      ),
    },
    {
      header: "Attempt",
      cell: ({ row }) => (
        <span>
          #{row.original.attempt}
          {row.original.redelivery ? <span className="muted"> (redelivery)</span> : null}
        </span>
      ),
    },
    { header: "Status", cell: ({ row }) => <Status value={row.original.status} /> },
    { header: "Response", cell: ({ row }) => <DeliveryOutcome delivery={row.original} /> },
    { header: "Attempted", cell: ({ row }) => <DateTime iso={row.original.attemptedAt} /> },
    { header: "Next attempt", cell: ({ row }) => <DateTime iso={row.original.nextAttemptAt} /> },
    {
      header: "Action",
      cell: ({ row }) =>
        redeliverable.has(row.original.deliveryId) ? (
          <RedeliverButton
            delivery={row.original}
            onFailed={(error) => {
              setScheduled(undefined);
              setFailure(error);
            }}
            onScheduled={(attempt) => {
              setFailure(undefined);
              setScheduled(attempt);
              void queryClient.invalidateQueries({ queryKey: keys.deliveries(webhookEndpointId) });
            }}
          />
        ) : null,
    },
  ];

  return (
    <section className="deliveries" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Recent deliveries</h2>
      {scheduled ? (
        <p className="notice" role="status">
          Redelivery scheduled: attempt #{scheduled.attempt} of <code>{scheduled.eventId}</code> is {scheduled.status}.
        </p>
      ) : null}
      {failure ? <ErrorState error={failure} /> : null}
      {list.isPending ? (
        <Loading what="deliveries" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={list.refetch} />
      ) : list.items.length === 0 ? (
        <EmptyState title="No deliveries yet">
          Attempts show here once an event this endpoint subscribes to happens (for example a paid checkout in test mode).
        </EmptyState>
      ) : (
        <>
          {failed > 0 ? (
            <p className="delivery-failure-summary">
              {failed} failed {failed === 1 ? "attempt" : "attempts"} among those shown.
            </p>
          ) : null}
          <DataTable caption="Delivery attempts" columns={columns} rows={list.items} rowId={(delivery) => delivery.deliveryId} />
          <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoad={list.loadMore} what="deliveries" />
        </>
      )}
    </section>
  );
}

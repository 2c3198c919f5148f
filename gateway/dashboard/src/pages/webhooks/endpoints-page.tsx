import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { useCursorPages } from "../../api/cursor-pages";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { useProjectRequest } from "../../workspace";
import { EndpointStatus } from "./endpoint-status";
import { EventTypes } from "./event-types";
import { endpointsPath, type WebhookEndpoint } from "./types";
import { useWebhookKeys } from "./use-endpoint";

const columns: ColumnDef<WebhookEndpoint, unknown>[] = [
  { header: "Status", cell: ({ row }) => <EndpointStatus endpoint={row.original} /> },
  { header: "URL", cell: ({ row }) => <span className="endpoint-url">{row.original.url}</span> },
  { header: "Events", cell: ({ row }) => <EventTypes types={row.original.enabledEvents} /> },
  { header: "Description", cell: ({ row }) => row.original.description ?? <span className="muted">—</span> },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.webhookEndpointId} label="endpoint id" /> },
  { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
];

/** The project's webhook endpoints, newest first; a row opens the endpoint and its deliveries. */
export function EndpointsPage() {
  const projectRequest = useProjectRequest();
  const keys = useWebhookKeys();
  const [, navigate] = useLocation();
  const list = useCursorPages(keys.endpoints, async (cursor) => {
    const page = await projectRequest<{ webhookEndpoints: WebhookEndpoint[]; nextCursor?: string }>(endpointsPath, {
      query: { limit: 20, cursor },
    });
    return { items: page.webhookEndpoints, nextCursor: page.nextCursor };
  });

  return (
    <section className="page webhooks-page">
      <h1>Webhooks</h1>
      <p className="muted">Where this project's events are sent. Open an endpoint to see its deliveries and failures.</p>
      {list.isPending ? (
        <Loading what="webhook endpoints" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={list.refetch} />
      ) : list.items.length === 0 ? (
        <EmptyState title="No webhook endpoints in this project and environment">
          Register one with <code>POST {endpointsPath}</code> (a <code>url</code> and the <code>enabledEvents</code> to send,
          or <code>["*"]</code>); its events and delivery attempts then show here.
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Webhook endpoints"
            columns={columns}
            rows={list.items}
            rowId={(endpoint) => endpoint.webhookEndpointId}
            onOpen={(endpoint) => navigate(`/webhooks/${endpoint.webhookEndpointId}`)}
          />
          <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoad={list.loadMore} what="endpoints" />
        </>
      )}
    </section>
  );
}

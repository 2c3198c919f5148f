import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "wouter";
import { newIdempotencyKey } from "../../api/client";
import { CopyId } from "../../components/copy-id";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Status } from "../../components/values";
import type { BayadEvent } from "./payment-history";
import type { ProjectRequest } from "./project-request";

interface Endpoint {
  webhookEndpointId: string;
  url: string;
  status: string;
}

interface Delivery {
  deliveryId: string;
  webhookEndpointId: string;
  eventId: string;
  attempt: number;
  status: string;
  responseStatusCode?: number;
  error?: string;
  nextAttemptAt?: string;
  redelivery: boolean;
  createdAt: string;
  attemptedAt?: string;
}

async function endpointsOf(request: ProjectRequest): Promise<Endpoint[]> {
  const endpoints: Endpoint[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const answer = await request<{ webhookEndpoints: Endpoint[]; nextCursor?: string }>("/api/v1/webhook-endpoints", { query: { limit: 100, cursor } });
    endpoints.push(...answer.webhookEndpoints);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return endpoints;
}

/** Every endpoint's attempts at each event (newest first). */
async function deliveriesOf(request: ProjectRequest, events: BayadEvent[]) {
  const endpoints = await endpointsOf(request);
  const attempts = await Promise.all(
    events.flatMap((event) =>
      endpoints.map((endpoint) =>
        request<{ deliveries: Delivery[] }>(`/api/v1/webhook-endpoints/${encodeURIComponent(endpoint.webhookEndpointId)}/deliveries`, {
          query: { eventId: event.id, limit: 100 },
        }).then((page) => page.deliveries),
      ),
    ),
  );
  return { endpoints, deliveries: attempts.flat() };
}

function RedeliverButton({ request, endpoint, eventId, onDone }: { request: ProjectRequest; endpoint: Endpoint; eventId: string; onDone: () => void }) {
  const [state, setState] = useState<{ busy: boolean; error?: unknown; sent?: boolean }>({ busy: false });
  const redeliver = async () => {
    setState({ busy: true });
    try {
      await request(`/api/v1/webhook-endpoints/${encodeURIComponent(endpoint.webhookEndpointId)}/deliveries/${encodeURIComponent(eventId)}/redeliver`, {
        method: "POST",
        body: {},
        idempotencyKey: newIdempotencyKey(),
      });
      setState({ busy: false, sent: true });
      onDone();
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return (
    <div>
      <button type="button" disabled={state.busy || endpoint.status !== "enabled"} onClick={() => void redeliver()}>
        Redeliver to {endpoint.url}
      </button>
      {state.sent ? (
        <span className="muted" role="status">
          {" "}
          Redelivery scheduled.
        </span>
      ) : null}
      {state.error ? <ErrorState error={state.error} /> : null}
    </div>
  );
}

/** The consumer events sent about the payment (and its refunds), with each delivery attempt. */
export function ConsumerEvents({ request, queryKey, events }: { request: ProjectRequest; queryKey: unknown[]; events: BayadEvent[] }) {
  const queryClient = useQueryClient();
  const key = [...queryKey, "deliveries", events.map((event) => event.id)];
  const answer = useQuery({ queryKey: key, queryFn: () => deliveriesOf(request, events), enabled: events.length > 0 });
  if (events.length === 0) return <EmptyState title="No events about this payment yet.">Events are made when it is paid, fails, expires or is refunded.</EmptyState>;
  if (answer.isPending) return <Loading what="delivery attempts" />;
  if (answer.isError) return <ErrorState error={answer.error} retry={() => void answer.refetch()} />;
  const { endpoints, deliveries } = answer.data;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  return (
    <>
      {endpoints.length === 0 ? (
        <p className="notice">
          This environment has no webhook endpoints, so the events below were recorded but sent nowhere. <Link href="/webhooks">Add an endpoint</Link>.
        </p>
      ) : null}
      {events.map((event) => {
        const attempts = deliveries.filter((delivery) => delivery.eventId === event.id);
        const byUrl = new Map(endpoints.map((endpoint) => [endpoint.webhookEndpointId, endpoint]));
        return (
          <section key={event.id} className="panel" aria-label={`Event ${event.type}`}>
            <p>
              <strong>{event.type}</strong> <DateTime iso={event.createdAt} /> <CopyId value={event.id} label="event id" />
            </p>
            {attempts.length === 0 ? (
              <p className="muted">No delivery attempts.</p>
            ) : (
              <div className="table-scroll">
                <table className="plain-table">
                  <caption className="visually-hidden">Delivery attempts of {event.id}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Endpoint</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">Status</th>
                      <th scope="col">Response</th>
                      <th scope="col">When</th>
                    </tr>
                  </thead>
                  <tbody>
                    {attempts.map((attempt) => (
                      <tr key={attempt.deliveryId}>
                        <td>{byUrl.get(attempt.webhookEndpointId)?.url ?? attempt.webhookEndpointId}</td>
                        <td>
                          {attempt.attempt}
                          {attempt.redelivery ? " (redelivery)" : ""}
                        </td>
                        <td>
                          <Status value={attempt.status} />
                        </td>
                        <td>{attempt.responseStatusCode ? `HTTP ${attempt.responseStatusCode}` : (attempt.error ?? "—")}</td>
                        <td>
                          <DateTime iso={attempt.attemptedAt ?? attempt.nextAttemptAt ?? attempt.createdAt} />
                          {attempt.status === "failed" && attempt.nextAttemptAt ? (
                            <span className="muted">
                              {" "}
                              next try <DateTime iso={attempt.nextAttemptAt} />
                            </span>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {endpoints
              .filter((endpoint) => attempts.some((attempt) => attempt.webhookEndpointId === endpoint.webhookEndpointId))
              .map((endpoint) => (
              <RedeliverButton key={endpoint.webhookEndpointId} request={request} endpoint={endpoint} eventId={event.id} onDone={refresh} />
            ))}
          </section>
        );
      })}
    </>
  );
}

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { request } from "../../api/client";
import { CopyId } from "../../components/copy-id";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { useActingFor, useProjectRequest } from "../../workspace";
import { eventsOf } from "../payments/payment-history";
import { timelineEntries } from "./timeline-entries";
import type { DevMessage, Invoice } from "./types";

const billingMessageKinds: DevMessage["kind"][] = ["invoice", "reminder", "receipt"];

/**
 * An invoice's timeline: what billing did and told its customer. The messages come from the
 * development outbox (`GET /admin/v1/messages`, every test-mode message, and live mode's while
 * its senders are `dev`), the steps and the payment from the events feed.
 */
export function InvoiceTimeline({ invoice }: { invoice: Invoice }) {
  const queryClient = useQueryClient();
  const projectRequest = useProjectRequest();
  const actingFor = useActingFor();
  const projectId = actingFor?.projectId ?? "";
  const events = useQuery({
    queryKey: ["billing", projectId, actingFor?.environment, "invoice-events", invoice.invoiceId],
    queryFn: () => eventsOf(projectRequest, invoice.invoiceId),
  });
  const messages = useQuery({
    queryKey: ["admin", "messages", projectId],
    // Billing's kinds only: the outbox's one-time passcodes have no business on this page.
    queryFn: async () =>
      (await Promise.all(billingMessageKinds.map((kind) => request<DevMessage[]>("/admin/v1/messages", { query: { projectId, kind } })))).flat(),
    enabled: projectId !== "",
  });

  // The invoice too (its status, its next step): everything of the billing area, and the messages.
  const refresh = () =>
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: ["billing", projectId] }),
      queryClient.invalidateQueries({ queryKey: ["admin", "messages", projectId] }),
    ]);

  let body;
  if (events.isPending || messages.isPending) body = <Loading what="the invoice's timeline" />;
  else if (events.error) body = <ErrorState error={events.error} retry={() => void events.refetch()} />;
  else {
    const entries = timelineEntries(invoice, events.data, messages.data ?? []);
    body =
      entries.length === 0 ? (
        <EmptyState title="Nothing recorded for this invoice yet." />
      ) : (
        <ol className="timeline invoice-timeline" aria-label="Invoice timeline">
          {entries.map((entry) => (
            <li key={entry.key} className={entry.upcoming ? "upcoming" : undefined}>
              {entry.at ? <DateTime iso={entry.at} /> : <span className="muted">time not recorded</span>}
              <strong>{entry.title}</strong>
              {entry.details.map((detail) => (
                <span key={detail} className="muted">
                  {detail}
                </span>
              ))}
              {entry.eventId ? <CopyId value={entry.eventId} label="event id" /> : null}
            </li>
          ))}
        </ol>
      );
  }

  return (
    <section aria-labelledby="invoice-timeline-title">
      <h2 id="invoice-timeline-title">Timeline</h2>
      <p className="muted">
        Messages to the customer as the development outbox holds them (every message in test mode); reminder steps and the payment from the events
        feed. Each is shown at the time it happened: in test mode, a step the billing-clock test helper took ahead of time shows when the helper ran.
      </p>
      {messages.error ? (
        <div className="timeline-messages-failure">
          <p className="muted">The messages sent for this invoice could not be read; the rest of the timeline is shown.</p>
          <ErrorState error={messages.error} retry={() => void messages.refetch()} />
        </div>
      ) : null}
      {body}
      <p>
        <button type="button" onClick={refresh} disabled={events.isFetching || messages.isFetching}>
          Refresh timeline
        </button>
      </p>
    </section>
  );
}

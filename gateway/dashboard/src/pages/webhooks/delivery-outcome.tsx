import type { WebhookDelivery } from "./types";

/** What the receiver answered, or why the attempt failed; failures stand out. */
export function DeliveryOutcome({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.status === "pending") return <span className="muted">Not attempted yet</span>;
  const answer = delivery.responseStatusCode ? `HTTP ${delivery.responseStatusCode}` : undefined;
  const text = [answer, delivery.error && delivery.error !== answer ? delivery.error : undefined].filter(Boolean).join(" · ");
  return (
    <span>
      <span className={delivery.status === "failed" ? "delivery-failure" : undefined}>{text || "—"}</span>
      {delivery.durationMs !== undefined ? <span className="muted"> in {delivery.durationMs} ms</span> : null}
    </span>
  );
}

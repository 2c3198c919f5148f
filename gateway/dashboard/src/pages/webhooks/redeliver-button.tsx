import { useState } from "react";
import { newIdempotencyKey } from "../../api/client";
import { useProjectRequest } from "../../workspace";
import { endpointsPath, type WebhookDelivery } from "./types";

/**
 * Schedules one more attempt of an event to the endpoint, now. One Idempotency-Key per press of
 * the button, so a double submission of the same press schedules one attempt.
 */
export function RedeliverButton({
  delivery,
  onScheduled,
  onFailed,
}: {
  delivery: WebhookDelivery;
  onScheduled: (attempt: WebhookDelivery) => void;
  onFailed: (error: unknown) => void;
}) {
  const projectRequest = useProjectRequest();
  const [busy, setBusy] = useState(false);
  const redeliver = async () => {
    setBusy(true);
    try {
      const attempt = await projectRequest<WebhookDelivery>(
        `${endpointsPath}/${encodeURIComponent(delivery.webhookEndpointId)}/deliveries/${encodeURIComponent(delivery.eventId)}/redeliver`,
        { method: "POST", idempotencyKey: newIdempotencyKey() },
      );
      onScheduled(attempt);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" aria-label={`Redeliver ${delivery.eventId}`} disabled={busy} onClick={() => void redeliver()}>
      {busy ? "Redelivering…" : "Redeliver"}
    </button>
  );
}

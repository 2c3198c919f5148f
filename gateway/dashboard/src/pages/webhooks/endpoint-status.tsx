import { Status } from "../../components/values";
import type { WebhookEndpoint } from "./types";

const reasons: Record<string, string> = {
  gone: "by Bayad: the receiver answered 410 Gone",
  failing: "by Bayad: every attempt failed for days",
};

/** Enabled or disabled, and who disabled it when Bayad did. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <span>
      <Status value={endpoint.status} />
      {endpoint.disabledReason ? <span className="muted"> {reasons[endpoint.disabledReason] ?? endpoint.disabledReason}</span> : null}
    </span>
  );
}

import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { DeliveriesSection } from "./deliveries-section";
import { EndpointStatus } from "./endpoint-status";
import { EndpointStatusToggle } from "./endpoint-status-toggle";
import { EventTypes } from "./event-types";
import { useEndpoint } from "./use-endpoint";

/** One endpoint: what it receives, its status (disable/enable), and its delivery attempts. */
export function EndpointPage({ params }: { params: Record<string, string | undefined> }) {
  const webhookEndpointId = params.id ?? "";
  const endpoint = useEndpoint(webhookEndpointId);

  return (
    <section className="page webhook-endpoint-page">
      <p className="breadcrumb">
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      {endpoint.isPending ? (
        <Loading what="the endpoint" />
      ) : endpoint.error ? (
        <ErrorState error={endpoint.error} retry={() => void endpoint.refetch()} />
      ) : (
        <>
          <Fields
            label="Endpoint"
            entries={[
              ["Id", <CopyId value={endpoint.data.webhookEndpointId} label="endpoint id" />],
              ["URL", <span className="endpoint-url">{endpoint.data.url}</span>],
              ["Status", <EndpointStatus endpoint={endpoint.data} />],
              ["Events", <EventTypes types={endpoint.data.enabledEvents} />],
              ["Description", endpoint.data.description],
              ["Created", <DateTime iso={endpoint.data.createdAt} />],
              ["Updated", <DateTime iso={endpoint.data.updatedAt} />],
            ]}
          />
          <EndpointStatusToggle endpoint={endpoint.data} />
          <DeliveriesSection webhookEndpointId={endpoint.data.webhookEndpointId} />
        </>
      )}
    </section>
  );
}

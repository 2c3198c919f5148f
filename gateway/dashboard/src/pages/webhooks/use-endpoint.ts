import { useQuery } from "@tanstack/react-query";
import { useActingFor, useProjectRequest } from "../../workspace";
import { endpointsPath, type WebhookEndpoint } from "./types";

/** Query keys of the webhooks area, scoped to the project and environment acted for. */
export function useWebhookKeys() {
  const actingFor = useActingFor();
  const scope = [actingFor?.projectId, actingFor?.environment];
  return {
    endpoints: ["webhook-endpoints", ...scope],
    endpoint: (id: string) => ["webhook-endpoint", ...scope, id],
    deliveries: (id: string) => ["webhook-deliveries", ...scope, id],
  };
}

export function useEndpoint(webhookEndpointId: string) {
  const projectRequest = useProjectRequest();
  const keys = useWebhookKeys();
  return useQuery({
    queryKey: keys.endpoint(webhookEndpointId),
    queryFn: () => projectRequest<WebhookEndpoint>(`${endpointsPath}/${encodeURIComponent(webhookEndpointId)}`),
  });
}

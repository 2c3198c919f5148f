import { useMutation, useQueryClient } from "@tanstack/react-query";
import { newIdempotencyKey } from "../../api/client";
import { ConfirmAction } from "../../components/confirm-action";
import { ErrorState } from "../../components/states";
import { useProjectRequest } from "../../workspace";
import { endpointsPath, type WebhookEndpoint } from "./types";
import { useWebhookKeys } from "./use-endpoint";

/**
 * Disable (after a confirm: nothing is delivered while disabled, pending attempts fail) or enable
 * an endpoint, by updateWebhookEndpoint's `status`.
 */
export function EndpointStatusToggle({ endpoint }: { endpoint: WebhookEndpoint }) {
  const projectRequest = useProjectRequest();
  const keys = useWebhookKeys();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (status: WebhookEndpoint["status"]) =>
      projectRequest<WebhookEndpoint>(`${endpointsPath}/${encodeURIComponent(endpoint.webhookEndpointId)}`, {
        method: "PATCH",
        body: { status },
        idempotencyKey: newIdempotencyKey(),
      }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(keys.endpoint(updated.webhookEndpointId), updated);
      await queryClient.invalidateQueries({ queryKey: keys.endpoints });
      await queryClient.invalidateQueries({ queryKey: keys.deliveries(updated.webhookEndpointId) });
    },
  });

  return (
    <div className="endpoint-actions">
      {endpoint.status === "enabled" ? (
        <ConfirmAction
          label="Disable"
          confirmLabel="Yes, disable"
          busy={change.isPending}
          question={
            <>
              Disable this endpoint? Nothing is delivered to <code>{endpoint.url}</code> while it is disabled, and its pending
              attempts fail as <q>endpoint disabled</q>. You can enable it again.
            </>
          }
          onConfirm={() => change.mutate("disabled")}
        />
      ) : (
        <button type="button" disabled={change.isPending} onClick={() => change.mutate("enabled")}>
          Enable
        </button>
      )}
      {change.error ? <ErrorState error={change.error} /> : null}
    </div>
  );
}

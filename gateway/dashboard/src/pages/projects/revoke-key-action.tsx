import { useMutation, useQueryClient } from "@tanstack/react-query";
import { request } from "../../api/client";
import { ConfirmAction } from "../../components/confirm-action";
import { ErrorState } from "../../components/states";
import { projectKeys, projectPath, type ApiKeySummary } from "./types";

/** Revokes a key after a confirm: final, every request presenting it is refused from then on. */
export function RevokeKeyAction({ projectId, apiKey }: { projectId: string; apiKey: ApiKeySummary }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => request<ApiKeySummary>(`${projectPath(projectId)}/api-keys/${encodeURIComponent(apiKey.keyId)}/revoke`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.apiKeys(projectId) }),
  });
  return (
    <>
      <ConfirmAction
        label="Revoke"
        name={`Revoke ${apiKey.keyId}`}
        confirmLabel="Yes, revoke"
        busy={revoke.isPending}
        question={
          <>
            Revoke <code>{apiKey.keyPrefix}…</code>? Every request with it is refused from now on. This cannot be undone.
          </>
        }
        onConfirm={() => revoke.mutate()}
      />
      {revoke.error ? <ErrorState error={revoke.error} /> : null}
    </>
  );
}

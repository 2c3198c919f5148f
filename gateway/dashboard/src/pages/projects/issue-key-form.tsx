import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { request, type Environment } from "../../api/client";
import { ErrorState } from "../../components/states";
import { IssuedKeyPanel } from "./issued-key-panel";
import { projectKeys, projectPath, type IssuedApiKey } from "./types";

/** Issues an API key in a chosen environment and shows its secret once. */
export function IssueKeyForm({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [environment, setEnvironment] = useState<Environment>("test");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [issued, setIssued] = useState<IssuedApiKey>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setIssued(await request<IssuedApiKey>(`${projectPath(projectId)}/api-keys`, { method: "POST", body: { environment } }));
      await queryClient.invalidateQueries({ queryKey: projectKeys.apiKeys(projectId) });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  if (issued) return <IssuedKeyPanel issued={issued} onDone={() => setIssued(undefined)} />;
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)}>
      <label>
        Environment
        <select value={environment} onChange={(event) => setEnvironment(event.target.value === "live" ? "live" : "test")}>
          <option value="test">Test (sk_test_…)</option>
          <option value="live">Live (sk_live_…, real money)</option>
        </select>
      </label>
      <button type="submit" disabled={busy}>
        {busy ? "Issuing…" : "Issue key"}
      </button>
      {error ? <ErrorState error={error} /> : null}
    </form>
  );
}

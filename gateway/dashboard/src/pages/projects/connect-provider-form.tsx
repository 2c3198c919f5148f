import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { request, type Environment } from "../../api/client";
import { ErrorState } from "../../components/states";
import { projectKeys, projectPath, type ProviderAccount } from "./types";

/**
 * Connects (or replaces) the project's PayMongo account in an environment. The secret key goes to
 * the gateway once and is cleared from the form whatever the answer; Bayad never shows it again.
 */
export function ConnectProviderForm({ projectId, environment, replacing }: { projectId: string; environment: Environment; replacing: boolean }) {
  const queryClient = useQueryClient();
  const [secretKey, setSecretKey] = useState("");
  const [methods, setMethods] = useState("qrph, card, gcash");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const paymentMethodTypes = methods
      .split(/[\s,]+/)
      .map((method) => method.trim())
      .filter(Boolean);
    try {
      const account = await request<ProviderAccount>(`${projectPath(projectId)}/provider-accounts/${environment}`, {
        method: "PUT",
        body: { provider: "paymongo", secretKey, paymentMethodTypes },
      });
      queryClient.setQueryData(projectKeys.providerAccount(projectId, environment), account);
    } catch (failure) {
      setError(failure);
    } finally {
      setSecretKey("");
      setBusy(false);
    }
  };

  return (
    <form className="stacked-form" onSubmit={(event) => void submit(event)} aria-label={`Connect a ${environment} PayMongo account`}>
      <label>
        PayMongo secret key ({environment === "live" ? "sk_live_…" : "sk_test_…"})
        <input
          type="password"
          autoComplete="off"
          value={secretKey}
          onChange={(event) => setSecretKey(event.target.value)}
          required
          pattern={environment === "live" ? "sk_live_[A-Za-z0-9]+" : "sk_test_[A-Za-z0-9]+"}
        />
      </label>
      <label>
        Payment methods (PayMongo codes, comma-separated)
        <input value={methods} onChange={(event) => setMethods(event.target.value)} required />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? "Checking the key with PayMongo…" : replacing ? "Replace account" : "Connect account"}
      </button>
      {error ? <ErrorState error={error} /> : null}
    </form>
  );
}

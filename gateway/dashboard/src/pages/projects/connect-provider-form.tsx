import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { request, type Environment } from "../../api/client";
import { ErrorState } from "../../components/states";
import { keyPrefixes, projectKeys, projectPath, providerLabels, type ProviderAccount, type ProviderName } from "./types";

const defaultMethods: Record<ProviderName, string> = { paymongo: "qrph, card, gcash", xendit: "" };

/**
 * Connects (or replaces) the project's account at a provider in an environment: PayMongo or
 * Xendit, chosen among `providers` (one: no choice shown). The secret key and Xendit's callback
 * token go to the gateway once and are cleared from the form whatever the answer; Bayad never
 * shows them again.
 */
export function ConnectProviderForm({
  projectId,
  environment,
  providers,
  replacing,
}: {
  projectId: string;
  environment: Environment;
  providers: readonly ProviderName[];
  replacing: boolean;
}) {
  const queryClient = useQueryClient();
  const [provider, setProvider] = useState<ProviderName>(providers[0] ?? "paymongo");
  const [secretKey, setSecretKey] = useState("");
  const [callbackToken, setCallbackToken] = useState("");
  const [methods, setMethods] = useState(defaultMethods[providers[0] ?? "paymongo"]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const label = providerLabels[provider];
  const prefix = keyPrefixes[provider][environment];

  const choose = (next: ProviderName) => {
    setProvider(next);
    setMethods(defaultMethods[next]);
    setSecretKey("");
    setCallbackToken("");
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const paymentMethodTypes = methods
      .split(/[\s,]+/)
      .map((method) => method.trim())
      .filter(Boolean);
    try {
      await request<ProviderAccount>(`${projectPath(projectId)}/provider-accounts/${environment}`, {
        method: "PUT",
        body: provider === "xendit" ? { provider, secretKey, paymentMethodTypes, callbackToken } : { provider, secretKey, paymentMethodTypes },
      });
      await queryClient.invalidateQueries({ queryKey: projectKeys.providerAccounts(projectId) });
    } catch (failure) {
      setError(failure);
    } finally {
      setSecretKey("");
      setCallbackToken("");
      setBusy(false);
    }
  };

  return (
    <form className="stacked-form" onSubmit={(event) => void submit(event)} aria-label={`Connect a ${environment} ${label} account`}>
      {providers.length > 1 ? (
        <label>
          Provider
          <select value={provider} onChange={(event) => choose(event.target.value as ProviderName)}>
            {providers.map((name) => (
              <option key={name} value={name}>
                {providerLabels[name]}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label>
        {label} secret key ({prefix}…)
        <input
          type="password"
          autoComplete="off"
          value={secretKey}
          onChange={(event) => setSecretKey(event.target.value)}
          required
          pattern={provider === "xendit" ? `${prefix}[A-Za-z0-9+/=]+` : `${prefix}[A-Za-z0-9]+`}
        />
      </label>
      {provider === "xendit" ? (
        <label>
          Callback verification token (Xendit dashboard → Settings → Webhooks)
          <input
            type="password"
            autoComplete="off"
            value={callbackToken}
            onChange={(event) => setCallbackToken(event.target.value)}
            required
            minLength={16}
            maxLength={200}
          />
        </label>
      ) : null}
      <label>
        {provider === "xendit" ? "Channels (Xendit codes, comma-separated; empty for all)" : "Payment methods (PayMongo codes, comma-separated)"}
        <input value={methods} onChange={(event) => setMethods(event.target.value)} required={provider === "paymongo"} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? `Checking the key with ${label}…` : replacing ? "Replace account" : "Connect account"}
      </button>
      {error ? <ErrorState error={error} /> : null}
    </form>
  );
}

import { CopyId } from "../../components/copy-id";
import { Status } from "../../components/values";
import { keyPrefixes, providerLabels, type ProviderAccount } from "./types";

/** What the operator calls a route's account: its provider, or its id when it is no longer the project's. */
export function routeAccountName(providerAccountId: string, accounts: readonly ProviderAccount[]): string {
  const account = accounts.find((candidate) => candidate.providerAccountId === providerAccountId);
  return account ? providerLabels[account.provider] : providerAccountId;
}

/**
 * A route's account: its provider, its key's last 4 and its id; paused when the provider refuses
 * its key, and said when it is gone (the route is skipped either way).
 */
export function RouteAccount({ providerAccountId, accounts }: { providerAccountId: string; accounts: readonly ProviderAccount[] }) {
  const account = accounts.find((candidate) => candidate.providerAccountId === providerAccountId);
  if (!account) {
    return (
      <span className="route-account">
        <CopyId value={providerAccountId} label="provider account id" /> <span className="muted">no longer an account of this project: skipped</span>
      </span>
    );
  }
  return (
    <span className="route-account">
      <strong>{providerLabels[account.provider]}</strong>{" "}
      <code className="key-text">
        {keyPrefixes[account.provider][account.environment]}…{account.secretKeyLast4}
      </code>{" "}
      <CopyId value={account.providerAccountId} label="provider account id" />
      {account.status === "paused" ? (
        <>
          {" "}
          <Status value="paused" /> <span className="muted">skipped until it is usable again</span>
        </>
      ) : null}
    </span>
  );
}

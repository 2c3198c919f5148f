import { useQuery } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Status } from "../../components/values";
import { ConnectProviderForm } from "./connect-provider-form";
import { providerAccountsQuery } from "./provider-queries";
import { keyPrefixes, projectPath, providerLabels, providerNames, type ProviderAccount, type ProviderName } from "./types";

/**
 * Active, or paused while the provider refuses the key (revoked or rolled): then why, and when the
 * key is tried again; replacing the key (below) resumes it at once.
 */
function AccountStatus({ account }: { account: ProviderAccount }) {
  if (account.status !== "paused") return <Status value={account.status} />;
  return (
    <span className="account-status">
      <Status value="paused" />{" "}
      {account.statusReason === "key_refused" ? `${providerLabels[account.provider]} refused the secret key. ` : ""}
      {account.pausedUntil ? (
        <>
          Tried again at <DateTime iso={account.pausedUntil} />; replace the key to resume now.
        </>
      ) : (
        "Replace the key to resume."
      )}
    </span>
  );
}

/** The provider's way to Bayad: PayMongo's webhook (Bayad registered it), or Xendit's callback URL to set in its dashboard. */
function deliveryEntries(account: ProviderAccount): Array<[string, React.ReactNode]> {
  if (account.callback) {
    return [
      [
        "Callback URL",
        <span className="webhook-url">
          <CopyId value={account.callback.url} label="Xendit callback URL" />{" "}
          <span className="muted">Configure this URL in Xendit's dashboard (Settings → Developers → Webhooks): Xendit has no API for it.</span>
        </span>,
      ],
      ["Callback token", <code>…{account.callback.tokenLast4}</code>],
    ];
  }
  if (!account.webhook) return [];
  return [
    ["Webhook", <Status value={account.webhook.status} />],
    ["Webhook URL", <span className="webhook-url">{account.webhook.url}</span>],
    ["Webhook id", <CopyId value={account.webhook.webhookId} label="PayMongo webhook id" />],
  ];
}

function AccountFields({ account, title }: { account: ProviderAccount; title: string }) {
  const label = providerLabels[account.provider];
  return (
    <>
      <Fields
        label={`${title} ${label} account`}
        entries={[
          ["Account", <CopyId value={account.providerAccountId} label="provider account id" />],
          ["Provider", label],
          ["Status", <AccountStatus account={account} />],
          ["Secret key", <code>{keyPrefixes[account.provider][account.environment]}…{account.secretKeyLast4}</code>],
          ["Payment methods", account.paymentMethodTypes.join(", ")],
          ...deliveryEntries(account),
          ["Connected", <DateTime iso={account.createdAt} />],
          ["Updated", <DateTime iso={account.updatedAt} />],
        ]}
      />
      <details>
        <summary>Replace the {label} key or payment methods</summary>
        <ConnectProviderForm projectId={account.projectId} environment={account.environment} providers={[account.provider]} replacing />
      </details>
    </>
  );
}

/**
 * The project's provider accounts in one environment (a PayMongo and a Xendit account at most),
 * each with its webhook or callback URL; and how to connect the provider not connected yet.
 */
export function ProviderAccountCard({ projectId, environment }: { projectId: string; environment: Environment }) {
  const accounts = useQuery(providerAccountsQuery(projectId));
  const title = environment === "live" ? "Live" : "Test";

  let body;
  if (accounts.isPending) body = <Loading what={`the ${environment} provider accounts`} />;
  else if (accounts.error) body = <ErrorState error={accounts.error} retry={() => void accounts.refetch()} />;
  else {
    const here = accounts.data.filter((account) => account.environment === environment);
    const missing = providerNames.filter((name: ProviderName) => !here.some((account) => account.provider === name));
    body = (
      <>
        {here.length === 0 ? (
          <EmptyState title={`No provider account in ${environment} mode`}>
            {environment === "test"
              ? "Test payments go to Bayad's sandbox. "
              : "Live payments are refused (PROVIDER_NOT_CONFIGURED) until an account is connected. "}
            Connect the project's own PayMongo or Xendit account with its secret key (<code>PUT {projectPath(projectId)}/provider-accounts/{environment}</code>
            , or the form below): Bayad checks the key with the provider, registers a webhook at PayMongo, and shows the callback URL to set in Xendit's dashboard.
          </EmptyState>
        ) : (
          here.map((account) => <AccountFields key={account.providerAccountId} account={account} title={title} />)
        )}
        {missing.length > 0 ? (
          <details>
            <summary>Connect {missing.length > 1 ? "a provider" : `a ${providerLabels[missing[0]]}`} account</summary>
            <ConnectProviderForm projectId={projectId} environment={environment} providers={missing} replacing={false} />
          </details>
        ) : null}
      </>
    );
  }

  return (
    <section className="provider-account" aria-label={`${title} provider account`}>
      <h3>{title}</h3>
      {body}
    </section>
  );
}

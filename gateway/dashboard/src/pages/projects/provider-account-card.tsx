import { useQuery } from "@tanstack/react-query";
import { ApiError, request, type Environment } from "../../api/client";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Status } from "../../components/values";
import { ConnectProviderForm } from "./connect-provider-form";
import { projectKeys, projectPath, type ProviderAccount } from "./types";

const noAccount = Symbol("no account");

/**
 * Active, or paused while PayMongo refuses the key (revoked or rolled): then why, and when the key
 * is tried again; replacing the key (below) resumes it at once.
 */
function AccountStatus({ account }: { account: ProviderAccount }) {
  if (account.status !== "paused") return <Status value={account.status} />;
  return (
    <span className="account-status">
      <Status value="paused" />{" "}
      {account.statusReason === "key_refused" ? "PayMongo refused the secret key. " : ""}
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

/** The project's PayMongo account in one environment, its webhook's status; or how to connect one. */
export function ProviderAccountCard({ projectId, environment }: { projectId: string; environment: Environment }) {
  const account = useQuery({
    queryKey: projectKeys.providerAccount(projectId, environment),
    queryFn: async (): Promise<ProviderAccount | typeof noAccount> => {
      try {
        return await request<ProviderAccount>(`${projectPath(projectId)}/provider-accounts/${environment}`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return noAccount;
        throw error;
      }
    },
  });
  const title = environment === "live" ? "Live" : "Test";

  let body;
  if (account.isPending) body = <Loading what={`the ${environment} provider account`} />;
  else if (account.error) body = <ErrorState error={account.error} retry={() => void account.refetch()} />;
  else if (account.data === noAccount)
    body = (
      <>
        <EmptyState title={`No PayMongo account in ${environment} mode`}>
          {environment === "test"
            ? "Test payments go to Bayad's sandbox. "
            : "Live payments are refused (PROVIDER_NOT_CONFIGURED) until an account is connected. "}
          Connect the project's own PayMongo account with its secret key (<code>PUT {projectPath(projectId)}/provider-accounts/{environment}</code>
          , or the form below): Bayad checks the key with PayMongo and registers a webhook there.
        </EmptyState>
        <details>
          <summary>Connect a PayMongo account</summary>
          <ConnectProviderForm projectId={projectId} environment={environment} replacing={false} />
        </details>
      </>
    );
  else
    body = (
      <>
        <Fields
          label={`${title} provider account`}
          entries={[
            ["Account", <CopyId value={account.data.providerAccountId} label="provider account id" />],
            ["Provider", "PayMongo"],
            ["Status", <AccountStatus account={account.data} />],
            ["Secret key", <code>sk_{environment}_…{account.data.secretKeyLast4}</code>],
            ["Payment methods", account.data.paymentMethodTypes.join(", ")],
            ["Webhook", <Status value={account.data.webhook.status} />],
            ["Webhook URL", <span className="webhook-url">{account.data.webhook.url}</span>],
            ["Webhook id", <CopyId value={account.data.webhook.webhookId} label="PayMongo webhook id" />],
            ["Connected", <DateTime iso={account.data.createdAt} />],
            ["Updated", <DateTime iso={account.data.updatedAt} />],
          ]}
        />
        <details>
          <summary>Replace the key or payment methods</summary>
          <ConnectProviderForm projectId={projectId} environment={environment} replacing />
        </details>
      </>
    );

  return (
    <section className="provider-account" aria-label={`${title} provider account`}>
      <h3>{title}</h3>
      {body}
    </section>
  );
}

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { amountRangeText, methodsText, shareText } from "./provider-routing";
import { providerAccountsQuery, providerRoutingQuery } from "./provider-queries";
import { RouteAccount } from "./route-account";
import { RoutingForm } from "./routing-form";
import type { ProviderAccount, ProviderRouting } from "./types";

function RoutesTable({ routing, accounts, caption }: { routing: ProviderRouting; accounts: readonly ProviderAccount[]; caption: string }) {
  const weights = routing.routes.map((route) => route.weight);
  return (
    <div className="table-scroll">
      <table className="plain-table routes-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Account</th>
            <th scope="col">Methods</th>
            <th scope="col">Amounts</th>
            <th scope="col" className="numeric">
              Weight
            </th>
            <th scope="col" className="numeric">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {routing.routes.map((route, index) => (
            <tr key={route.providerAccountId}>
              <td>{index + 1}</td>
              <td>
                <RouteAccount providerAccountId={route.providerAccountId} accounts={accounts} />
              </td>
              <td>{methodsText(route)}</td>
              <td>{amountRangeText(route)}</td>
              <td className="numeric">{route.weight}</td>
              <td className="numeric">{route.weight === 0 ? "0% (failover only)" : shareText(route.weight, weights)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * How the project's new checkouts and payment intents in one environment are spread over its
 * provider accounts (docs/api/routing.md): the routes in order, each account's share, the
 * default when none is stored; and editing them, saved with the version read.
 */
export function RoutingSection({ projectId, environment }: { projectId: string; environment: Environment }) {
  const routing = useQuery(providerRoutingQuery(projectId, environment));
  const accounts = useQuery(providerAccountsQuery(projectId));
  const [editing, setEditing] = useState(false);
  const [savedVersion, setSavedVersion] = useState<number>();
  const title = environment === "live" ? "Live" : "Test";

  let body;
  if (routing.isPending || accounts.isPending) body = <Loading what={`the ${environment} routing`} />;
  else if (routing.error) body = <ErrorState error={routing.error} retry={() => void routing.refetch()} />;
  else if (accounts.error) body = <ErrorState error={accounts.error} retry={() => void accounts.refetch()} />;
  else if (routing.data.routes.length === 0) {
    body = (
      <EmptyState title={`No provider account to route ${environment} payments to`}>
        {environment === "test" ? "Test payments go to Bayad's sandbox." : "Live payments are refused (PROVIDER_NOT_CONFIGURED)."} Connect an account
        above; with two (PayMongo and Xendit), the routing says which takes each payment.
      </EmptyState>
    );
  } else {
    const here = accounts.data.filter((account) => account.environment === environment);
    body = (
      <>
        <p className="muted">
          {routing.data.default ? (
            <>No routing is stored: the accounts oldest first, the oldest takes every payment and the others only by failover.</>
          ) : (
            <>
              Version {routing.data.version}
              {routing.data.updatedAt ? (
                <>
                  , saved <DateTime iso={routing.data.updatedAt} />
                </>
              ) : null}
              . The first account for a payment is picked by weight among the routes that take it; the others follow in order, for failover.
            </>
          )}
        </p>
        <RoutesTable routing={routing.data} accounts={here} caption={`${title} routes`} />
        {savedVersion !== undefined && !editing ? (
          <p className="notice" role="status">
            Routing saved (version {savedVersion}).
          </p>
        ) : null}
        {editing ? (
          <RoutingForm
            projectId={projectId}
            environment={environment}
            routing={routing.data}
            accounts={here}
            onSaved={(saved) => {
              setSavedVersion(saved.version);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <button
            type="button"
            onClick={() => {
              setSavedVersion(undefined);
              setEditing(true);
            }}
          >
            Edit routing
          </button>
        )}
      </>
    );
  }

  return (
    <section className="provider-routing" aria-label={`${title} routing`}>
      <h3>
        {title} {routing.data?.default ? <span className="status default-badge">default</span> : null}
      </h3>
      {body}
    </section>
  );
}

import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, request, type Environment } from "../../api/client";
import { ErrorState } from "../../components/states";
import {
  detailsByAccount,
  maxRouteWeight,
  routeDraft,
  routeFromDraft,
  routeMethodLabels,
  routeMethods,
  shareText,
  type DraftProblems,
  type RouteDraft,
} from "./provider-routing";
import { providerRoutingQuery } from "./provider-queries";
import { RouteAccount, routeAccountName } from "./route-account";
import { projectPath, type ProviderAccount, type ProviderRoute, type ProviderRouting } from "./types";

function RouteFields({
  draft,
  index,
  count,
  accounts,
  share,
  problems,
  apiDetails,
  change,
  move,
  remove,
}: {
  draft: RouteDraft;
  index: number;
  count: number;
  accounts: readonly ProviderAccount[];
  share: string;
  problems: DraftProblems;
  apiDetails: readonly string[];
  change: (next: Partial<RouteDraft>) => void;
  move: (by: -1 | 1) => void;
  remove: () => void;
}) {
  const name = `Route ${index + 1}`;
  const id = `route-${draft.providerAccountId}`;
  const bounds = [
    ["minAmount", "Minimum amount", draft.minPesos, "minPesos"],
    ["maxAmount", "Maximum amount", draft.maxPesos, "maxPesos"],
  ] as const;
  const problem = (field: keyof DraftProblems) =>
    problems[field] ? (
      <span className="field-problem" id={`${id}-${field}-problem`}>
        {problems[field]}
      </span>
    ) : null;
  return (
    <fieldset className="route-draft" aria-label={`${name}: ${routeAccountName(draft.providerAccountId, accounts)}`}>
      <legend>
        {index + 1}. <RouteAccount providerAccountId={draft.providerAccountId} accounts={accounts} />
      </legend>
      <div className="route-draft-fields">
        <div className="route-field">
          <label htmlFor={`${id}-weight`}>Weight (0–{maxRouteWeight})</label>
          <input
            id={`${id}-weight`}
            type="number"
            min={0}
            max={maxRouteWeight}
            step={1}
            required
            value={draft.weight}
            onChange={(event) => change({ weight: event.target.value })}
            aria-invalid={problems.weight ? true : undefined}
            aria-describedby={problems.weight ? `${id}-weight-problem ${id}-share` : `${id}-share`}
          />
          <span className="muted" id={`${id}-share`}>
            Share {share}
          </span>
          {problem("weight")}
        </div>
        {bounds.map(([field, label, value, key]) => (
          <div className="route-field" key={field}>
            <label htmlFor={`${id}-${field}`}>{label} in pesos (empty: none)</label>
            <input
              id={`${id}-${field}`}
              inputMode="decimal"
              value={value}
              onChange={(event) => change({ [key]: event.target.value })}
              aria-invalid={problems[field] ? true : undefined}
              aria-describedby={problems[field] ? `${id}-${field}-problem` : undefined}
            />
            {problem(field)}
          </div>
        ))}
      </div>
      <fieldset className="route-methods">
        <legend>Methods (none ticked: every method)</legend>
        {routeMethods.map((method) => (
          <label key={method} className="checkbox">
            <input
              type="checkbox"
              checked={draft.methods.includes(method)}
              onChange={(event) =>
                change({ methods: event.target.checked ? [...draft.methods, method] : draft.methods.filter((each) => each !== method) })
              }
            />{" "}
            {routeMethodLabels[method]}
          </label>
        ))}
      </fieldset>
      {apiDetails.length > 0 ? (
        <ul className="error-details route-problems" aria-label={`Problems with ${name.toLowerCase()}`}>
          {apiDetails.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      ) : null}
      <div className="route-actions">
        <button type="button" onClick={() => move(-1)} disabled={index === 0} aria-label={`Move ${name.toLowerCase()} up`}>
          ↑ Up
        </button>
        <button type="button" onClick={() => move(1)} disabled={index === count - 1} aria-label={`Move ${name.toLowerCase()} down`}>
          ↓ Down
        </button>
        <button type="button" onClick={remove} disabled={count === 1} aria-label={`Remove ${name.toLowerCase()}`}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}

/**
 * Edits a routing as read: weights, methods, amount bounds in pesos (sent as centavos, exactly),
 * the order; routes added for accounts it leaves out, or removed. Saved with the version read, so
 * a save made meanwhile elsewhere is not overwritten: the API answers 409 and the form offers to
 * reload. The API's checks (400, details naming `routes[i].field`) show beside the route they name.
 */
export function RoutingForm({
  projectId,
  environment,
  routing,
  accounts,
  onSaved,
  onCancel,
}: {
  projectId: string;
  environment: Environment;
  routing: ProviderRouting;
  accounts: readonly ProviderAccount[];
  onSaved: (saved: ProviderRouting) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState(() => routing.routes.map(routeDraft));
  const [version, setVersion] = useState(routing.version);
  const [problems, setProblems] = useState<Map<string, DraftProblems>>(new Map());
  const [failure, setFailure] = useState<{ error: unknown; sent: ProviderRoute[] }>();
  const [busy, setBusy] = useState(false);
  const title = environment === "live" ? "Live" : "Test";

  const weights = drafts.map((draft) => (/^\d+$/.test(draft.weight.trim()) ? Number(draft.weight) : 0));
  const missing = accounts.filter((account) => !drafts.some((draft) => draft.providerAccountId === account.providerAccountId));
  const apiDetails = failure?.error instanceof ApiError ? detailsByAccount(failure.error.details, failure.sent) : new Map<string, string[]>();
  const changedMeanwhile = failure?.error instanceof ApiError && failure.error.code === "CONCURRENT_MODIFICATION";

  const change = (index: number, next: Partial<RouteDraft>) => setDrafts((current) => current.map((draft, at) => (at === index ? { ...draft, ...next } : draft)));
  const move = (index: number, by: -1 | 1) =>
    setDrafts((current) => {
      const next = [...current];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });

  const reload = async () => {
    setFailure(undefined);
    setProblems(new Map());
    try {
      const fresh = await queryClient.fetchQuery({ ...providerRoutingQuery(projectId, environment), staleTime: 0 });
      setDrafts(fresh.routes.map(routeDraft));
      setVersion(fresh.version);
    } catch (error) {
      setFailure({ error, sent: [] });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const read = drafts.map((draft) => ({ draft, result: routeFromDraft(draft) }));
    const found = new Map(read.flatMap(({ draft, result }) => ("problems" in result ? [[draft.providerAccountId, result.problems] as const] : [])));
    setProblems(found);
    if (found.size > 0) {
      setFailure(undefined);
      return;
    }
    const routes = read.flatMap(({ result }) => ("route" in result ? [result.route] : []));
    setBusy(true);
    setFailure(undefined);
    try {
      const saved = await request<ProviderRouting>(`${projectPath(projectId)}/provider-routing/${environment}`, {
        method: "PUT",
        body: { routes, version },
      });
      queryClient.setQueryData(providerRoutingQuery(projectId, environment).queryKey, saved);
      onSaved(saved);
    } catch (error) {
      setFailure({ error, sent: routes });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="routing-form" onSubmit={(event) => void submit(event)} aria-label={`Edit the ${environment} routing`}>
      {drafts.map((draft, index) => (
        <RouteFields
          key={draft.providerAccountId}
          draft={draft}
          index={index}
          count={drafts.length}
          accounts={accounts}
          share={weights[index] === 0 ? "0% (failover only)" : shareText(weights[index], weights)}
          problems={problems.get(draft.providerAccountId) ?? {}}
          apiDetails={apiDetails.get(draft.providerAccountId) ?? []}
          change={(next) => change(index, next)}
          move={(by) => move(index, by)}
          remove={() => setDrafts((current) => current.filter((_, at) => at !== index))}
        />
      ))}
      {missing.map((account) => (
        <button
          key={account.providerAccountId}
          type="button"
          onClick={() => setDrafts((current) => [...current, { providerAccountId: account.providerAccountId, methods: [], weight: "0", minPesos: "", maxPesos: "" }])}
        >
          Add a route to the {routeAccountName(account.providerAccountId, accounts)} account
        </button>
      ))}
      <div className="route-actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : `Save ${title.toLowerCase()} routing`}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      {problems.size > 0 ? (
        <p className="state error" role="alert">
          Nothing was saved: correct the fields marked above.
        </p>
      ) : null}
      {failure ? (
        <div className="routing-failure">
          <ErrorState error={failure.error} />
          {changedMeanwhile ? (
            <p role="status">
              The routing was changed meanwhile (saved elsewhere since you opened it): reload it, then make your changes again.{" "}
              <button type="button" onClick={() => void reload()}>
                Reload routing
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

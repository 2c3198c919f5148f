import { useId, useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "wouter";
import type { Environment } from "../../api/client";
import { ErrorState, Loading } from "../../components/states";
import { humanize } from "../../format";
import { useWorkspace } from "../../workspace";
import { EnvironmentTable } from "./environment-table";
import { overviewSearchOf, overviewViewOf } from "./overview-url";
import { PeriodsTable } from "./periods-table";
import { SummaryCards } from "./summary-cards";
import { cardsOf, chartPoints, granularities, paymentsSummary, periodRows, type Grouping, type SummaryQuery } from "./summary";
import { VolumeChart } from "./volume-chart";

const groupTitles: Record<Grouping, string> = { payment_method: "Payment method", provider_account: "Provider account" };

function useSummary(projectId: string | undefined, environment: Environment, query: SummaryQuery, enabled: boolean) {
  return useQuery({
    queryKey: ["payments-summary", projectId, environment, query.from, query.to, query.granularity, query.groupBy ?? ""],
    queryFn: () => paymentsSummary({ projectId: projectId ?? "", environment }, query),
    enabled: Boolean(projectId) && enabled,
  });
}

/**
 * The chosen project's totals over any range of Philippine days, from the summary the records
 * service keeps (no cap): cards, per-period chart and table, optionally split by method or provider
 * account, and test and live side by side.
 */
export function OverviewPage() {
  const id = useId();
  const { projectId, environment } = useWorkspace();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => overviewViewOf(params), [params]);
  const { query } = view;
  const set = (next: Partial<SummaryQuery>) => setParams(overviewSearchOf({ ...query, ...next }));
  const valid = view.error === undefined;

  const current = useSummary(projectId, environment, query, valid);
  // The side-by-side table needs no split; with none chosen, it shares the current call.
  const unsplit = { ...query, groupBy: undefined };
  const test = useSummary(projectId, "test", unsplit, valid);
  const live = useSummary(projectId, "live", unsplit, valid);
  const environmentTotals = environment === "live" ? live : test;
  // Kept while the answer is the same, so the chart is not redrawn on every render.
  const points = useMemo(() => (current.data ? chartPoints(current.data) : []), [current.data]);

  let body;
  if (!valid) body = null;
  else if (current.isPending || environmentTotals.isPending) body = <Loading what="the summary" />;
  else if (current.isError) body = <ErrorState error={current.error} retry={() => void current.refetch()} />;
  else if (environmentTotals.isError) body = <ErrorState error={environmentTotals.error} retry={() => void environmentTotals.refetch()} />;
  else {
    body = (
      <>
        <SummaryCards cards={cardsOf(environmentTotals.data.total)} />
        <section className="panel" aria-labelledby={`${id}-periods`}>
          <h2 id={`${id}-periods`}>Paid volume per {query.granularity}</h2>
          <VolumeChart points={points} from={query.from} to={query.to} />
          <details>
            <summary>The numbers per {query.granularity} as a table</summary>
            <PeriodsTable rows={periodRows(current.data, query.granularity, query.groupBy)} groupTitle={query.groupBy ? groupTitles[query.groupBy] : undefined} />
          </details>
        </section>
      </>
    );
  }

  return (
    <>
      <h1>Overview</h1>
      <form className="toolbar" role="group" aria-label="Range" onSubmit={(event) => event.preventDefault()}>
        <label className="field">
          From (Philippine day)
          <input type="date" value={query.from} required onChange={(event) => set({ from: event.target.value })} />
        </label>
        <label className="field">
          To (Philippine day)
          <input type="date" value={query.to} required onChange={(event) => set({ to: event.target.value })} />
        </label>
        <div className="field">
          <label htmlFor={`${id}-granularity`}>Per</label>
          <select id={`${id}-granularity`} value={query.granularity} onChange={(event) => set({ granularity: event.target.value as SummaryQuery["granularity"] })}>
            {granularities.map((granularity) => (
              <option key={granularity} value={granularity}>
                {humanize(granularity)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-split`}>Split by</label>
          <select id={`${id}-split`} value={query.groupBy ?? ""} onChange={(event) => set({ groupBy: (event.target.value || undefined) as Grouping | undefined })}>
            <option value="">Nothing</option>
            <option value="payment_method">{groupTitles.payment_method}</option>
            <option value="provider_account">{groupTitles.provider_account}</option>
          </select>
        </div>
        {view.error ? (
          <p className="field-problem" role="alert">
            {view.error}
          </p>
        ) : null}
      </form>
      <p className="muted">
        {environment === "live" ? "Live" : "Test"} mode, {query.from} to {query.to} (Philippine days: each record counts on the day, UTC+8, it was
        created). Paid counts paid checkouts, payment links and invoices and succeeded payment intents; fees are the providers' (payments' and
        refunds'); net is paid − fees − refunded. Success rate is paid ÷ (paid + failed) payments; ones still open, cancelled or expired are left
        out.
      </p>
      {body}
      <h2>By environment</h2>
      <EnvironmentTable test={test} live={live} />
    </>
  );
}

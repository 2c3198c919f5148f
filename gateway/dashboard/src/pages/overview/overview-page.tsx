import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { ErrorState, Loading } from "../../components/states";
import { DateTime, Money } from "../../components/values";
import { useWorkspace } from "../../workspace";
import { allRecords, maxPages, maxPageSize } from "../payments/records";
import { DailyTable } from "./daily-table";
import { EnvironmentTable } from "./environment-table";
import { dailyTotals, formatRate, lastDays, totals } from "./totals";
import { VolumeChart } from "./volume-chart";

const windowDays = 30;

function useWindow(projectId: string | undefined, environment: Environment, since: Date) {
  return useQuery({
    queryKey: ["overview", projectId, environment, since.toISOString()],
    queryFn: () => allRecords({ projectId: projectId ?? "", environment }, { createdAfter: since.toISOString() }),
    enabled: Boolean(projectId),
  });
}

/** The last 30 days of the chosen project, from the records feed, with test and live side by side. */
export function OverviewPage() {
  const { projectId, environment } = useWorkspace();
  const { days, since } = useMemo(() => lastDays(windowDays), []);
  const test = useWindow(projectId, "test", since);
  const live = useWindow(projectId, "live", since);
  const current = environment === "live" ? live : test;
  const daily = useMemo(() => (current.data ? dailyTotals(current.data.records, days) : []), [current.data, days]);

  let body;
  if (current.isPending) body = <Loading what="the last 30 days" />;
  else if (current.isError) body = <ErrorState error={current.error} retry={() => void current.refetch()} />;
  else {
    const sum = totals(current.data.records);
    body = (
      <>
        {current.data.capped ? (
          <p className="notice" role="status">
            Only the newest {maxPages * maxPageSize} records were read ({maxPages} pages); the totals leave out older ones.
          </p>
        ) : null}
        <div className="cards">
          <div className="card">
            <div className="label">Volume</div>
            <div className="value" data-testid="overview-volume">
              <Money minor={sum.volumeMinor.toString()} />
            </div>
          </div>
          <div className="card">
            <div className="label">Paid payments</div>
            <div className="value">{sum.paidCount}</div>
          </div>
          <div className="card">
            <div className="label">Success rate</div>
            <div className="value">{formatRate(sum.successRate)}</div>
          </div>
          <div className="card">
            <div className="label">Refunds</div>
            <div className="value">
              {sum.refundCount} · <Money minor={sum.refundMinor.toString()} />
            </div>
          </div>
        </div>
        <section className="panel" aria-labelledby="per-day">
          <h2 id="per-day">Paid volume per day</h2>
          <VolumeChart days={daily} />
          <DailyTable days={daily} />
        </section>
      </>
    );
  }

  return (
    <>
      <h1>Overview</h1>
      <p className="muted">
        {environment === "live" ? "Live" : "Test"} mode, the last {windowDays} days (since <DateTime iso={since.toISOString()} />
        ), from the records feed. Volume counts paid checkouts and succeeded payment intents. Success rate is those ÷ every
        checkout and intent that finished (paid, succeeded, failed, cancelled or expired); ones still open are left out.
        Refunds count pending and succeeded refunds (not failed ones).
      </p>
      {body}
      <h2>By environment</h2>
      <EnvironmentTable test={test} live={live} />
    </>
  );
}

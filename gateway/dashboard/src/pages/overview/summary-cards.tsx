import type { ReactNode } from "react";
import { Money } from "../../components/values";
import { formatRate, type SummaryCards as Cards } from "./summary";

function Card({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="card" role="group" aria-label={label}>
      <div className="label">{label}</div>
      <div className="value" data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

/** The range's totals: paid volume and count, fees, net, refunds, failures and the success rate. */
export function SummaryCards({ cards }: { cards: Cards }) {
  return (
    <>
      <div className="cards">
        <Card label="Paid volume" testId="overview-paid">
          <Money minor={cards.paid.minor} />
        </Card>
        <Card label="Paid payments" testId="overview-paid-count">
          {cards.paid.count}
        </Card>
        <Card label="Fees" testId="overview-fees">
          <Money minor={cards.fee} />
        </Card>
        <Card label="Net" testId="overview-net">
          <Money minor={cards.net} />
        </Card>
        <Card label="Refunded" testId="overview-refunded">
          {cards.refunded.count} · <Money minor={cards.refunded.minor} />
        </Card>
        <Card label="Failed" testId="overview-failed">
          {cards.failed.count} · <Money minor={cards.failed.minor} />
        </Card>
        <Card label="Success rate" testId="overview-success-rate">
          {formatRate(cards.successRate)}
        </Card>
      </div>
      {cards.unreportedFeeCount > 0 ? (
        <p className="notice" role="status">
          Fees not reported by the provider for {cards.unreportedFeeCount} {cards.unreportedFeeCount === 1 ? "payment" : "payments"}: the fees and net
          leave them out.
        </p>
      ) : null}
    </>
  );
}

import type { UseQueryResult } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { Money } from "../../components/values";
import { cardsOf, formatRate, type PaymentsSummary } from "./summary";

type Answer = UseQueryResult<PaymentsSummary>;

function Row({ environment, answer }: { environment: Environment; answer: Answer }) {
  const name = environment === "live" ? "Live" : "Test";
  if (answer.isPending || answer.isError) {
    return (
      <tr>
        <th scope="row">{name}</th>
        <td colSpan={6} className="muted">
          {answer.isPending ? "Loading…" : `Could not load: ${answer.error.message}`}
        </td>
      </tr>
    );
  }
  const cards = cardsOf(answer.data.total);
  return (
    <tr>
      <th scope="row">{name}</th>
      <td className="numeric">
        <Money minor={cards.paid.minor} />
      </td>
      <td className="numeric">{cards.paid.count}</td>
      <td className="numeric">
        <Money minor={cards.fee} />
      </td>
      <td className="numeric">
        <Money minor={cards.net} />
      </td>
      <td className="numeric">
        {cards.refunded.count} · <Money minor={cards.refunded.minor} />
      </td>
      <td className="numeric">{formatRate(cards.successRate)}</td>
    </tr>
  );
}

/** The range's totals for test and live side by side, from one summary of each. */
export function EnvironmentTable({ test, live }: { test: Answer; live: Answer }) {
  return (
    <div className="table-scroll">
      <table className="plain-table">
        <caption className="visually-hidden">Totals by environment</caption>
        <thead>
          <tr>
            <th scope="col">Environment</th>
            <th scope="col" className="numeric">
              Paid volume
            </th>
            <th scope="col" className="numeric">
              Paid payments
            </th>
            <th scope="col" className="numeric">
              Fees
            </th>
            <th scope="col" className="numeric">
              Net
            </th>
            <th scope="col" className="numeric">
              Refunded
            </th>
            <th scope="col" className="numeric">
              Success rate
            </th>
          </tr>
        </thead>
        <tbody>
          <Row environment="test" answer={test} />
          <Row environment="live" answer={live} />
        </tbody>
      </table>
    </div>
  );
}

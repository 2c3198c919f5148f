import type { UseQueryResult } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { cardsOf, type PaymentsSummary } from "./summary";
import { TotalsCells, TotalsHeadings, totalsColumns } from "./totals-columns";

type Answer = UseQueryResult<PaymentsSummary>;

function Row({ environment, answer }: { environment: Environment; answer: Answer }) {
  const name = environment === "live" ? "Live" : "Test";
  if (answer.isPending || answer.isError) {
    return (
      <tr>
        <th scope="row">{name}</th>
        <td colSpan={totalsColumns.length} className="muted">
          {answer.isPending ? "Loading…" : `Could not load: ${answer.error.message}`}
        </td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">{name}</th>
      <TotalsCells cards={cardsOf(answer.data.total)} />
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
            <TotalsHeadings />
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

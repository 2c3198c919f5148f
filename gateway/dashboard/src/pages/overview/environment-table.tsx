import type { UseQueryResult } from "@tanstack/react-query";
import type { Environment } from "../../api/client";
import { Money } from "../../components/values";
import { formatRate, totals } from "./totals";
import type { PaymentRecord } from "../payments/records";

type Window = UseQueryResult<{ records: PaymentRecord[]; capped: boolean }>;

function Row({ environment, window }: { environment: Environment; window: Window }) {
  const name = environment === "live" ? "Live" : "Test";
  if (window.isPending || window.isError) {
    return (
      <tr>
        <th scope="row">{name}</th>
        <td colSpan={4} className="muted">
          {window.isPending ? "Loading…" : `Could not load: ${window.error.message}`}
        </td>
      </tr>
    );
  }
  const sum = totals(window.data.records);
  return (
    <tr>
      <th scope="row">{name}</th>
      <td className="numeric">
        <Money minor={sum.volumeMinor.toString()} />
      </td>
      <td className="numeric">{sum.paidCount}</td>
      <td className="numeric">{formatRate(sum.successRate)}</td>
      <td className="numeric">
        {sum.refundCount} · <Money minor={sum.refundMinor.toString()} />
      </td>
    </tr>
  );
}

/** The same 30-day totals for test and live, side by side. */
export function EnvironmentTable({ test, live }: { test: Window; live: Window }) {
  return (
    <div className="table-scroll">
      <table className="plain-table">
        <caption className="visually-hidden">Totals by environment</caption>
        <thead>
          <tr>
            <th scope="col">Environment</th>
            <th scope="col" className="numeric">
              Volume
            </th>
            <th scope="col" className="numeric">
              Paid payments
            </th>
            <th scope="col" className="numeric">
              Success rate
            </th>
            <th scope="col" className="numeric">
              Refunds
            </th>
          </tr>
        </thead>
        <tbody>
          <Row environment="test" window={test} />
          <Row environment="live" window={live} />
        </tbody>
      </table>
    </div>
  );
}

import { Money } from "../../components/values";
import { formatRate, type PeriodRow } from "./summary";

/** The summary's periods as a table (the chart's text alternative), split by group when asked. */
export function PeriodsTable({ rows, groupTitle }: { rows: PeriodRow[]; groupTitle?: string }) {
  return (
    <div className="table-scroll">
      <table className="plain-table">
        <caption className="visually-hidden">Totals per period</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            {groupTitle ? <th scope="col">{groupTitle}</th> : null}
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
              Failed
            </th>
            <th scope="col" className="numeric">
              Success rate
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.period}</th>
              {groupTitle ? <td>{row.group}</td> : null}
              <td className="numeric">
                <Money minor={row.cards.paid.minor} />
              </td>
              <td className="numeric">{row.cards.paid.count}</td>
              <td className="numeric">
                <Money minor={row.cards.fee} />
              </td>
              <td className="numeric">
                <Money minor={row.cards.net} />
              </td>
              <td className="numeric">
                {row.cards.refunded.count} · <Money minor={row.cards.refunded.minor} />
              </td>
              <td className="numeric">{row.cards.failed.count}</td>
              <td className="numeric">{formatRate(row.cards.successRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

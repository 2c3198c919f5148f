import type { PeriodRow } from "./summary";
import { TotalsCells, TotalsHeadings } from "./totals-columns";

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
            <TotalsHeadings />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.period}</th>
              {groupTitle ? <td>{row.group}</td> : null}
              <TotalsCells cards={row.cards} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { Money } from "../../components/values";
import type { DayTotal } from "./totals";

/** The chart's numbers as a table: the text alternative of the canvas. */
export function DailyTable({ days }: { days: DayTotal[] }) {
  return (
    <details>
      <summary>The same numbers as a table</summary>
      <div className="table-scroll">
        <table className="plain-table">
          <caption className="visually-hidden">Paid volume and count per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="numeric">
                Volume
              </th>
              <th scope="col" className="numeric">
                Paid payments
              </th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td className="numeric">
                  <Money minor={day.volumeMinor.toString()} />
                </td>
                <td className="numeric">{day.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

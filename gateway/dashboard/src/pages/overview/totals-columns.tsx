import { Money } from "../../components/values";
import { formatRate, type SummaryCards } from "./summary";

/** The headings of the totals' columns, in the order TotalsCells fills them. */
export const totalsColumns = ["Paid volume", "Paid payments", "Fees", "Net", "Refunded", "Failed", "Success rate"] as const;

export function TotalsHeadings() {
  return (
    <>
      {totalsColumns.map((title) => (
        <th key={title} scope="col" className="numeric">
          {title}
        </th>
      ))}
    </>
  );
}

/** One row's totals, a cell per heading of TotalsHeadings. */
export function TotalsCells({ cards }: { cards: SummaryCards }) {
  return (
    <>
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
      <td className="numeric">{cards.failed.count}</td>
      <td className="numeric">{formatRate(cards.successRate)}</td>
    </>
  );
}

import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { EmptyState } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import type { PaymentRecord } from "./records";

/** A payment's refunds (newest first), each linking to its own detail. */
export function RefundsList({ refunds }: { refunds: PaymentRecord[] }) {
  if (refunds.length === 0) return <EmptyState title="No refunds.">Refund part or all of a paid payment with the form below.</EmptyState>;
  return (
    <div className="table-scroll">
      <table className="plain-table">
        <caption className="visually-hidden">Refunds</caption>
        <thead>
          <tr>
            <th scope="col">Refund</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {refunds.map((refund) => (
            <tr key={refund.id}>
              <td>
                <CopyId value={refund.id} label="refund id" /> <Link href={`/payments/${refund.id}`}>Open</Link>
              </td>
              <td>
                <Money minor={refund.amountMinor} />
              </td>
              <td>
                <Status value={refund.status} />
              </td>
              <td>
                <DateTime iso={refund.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

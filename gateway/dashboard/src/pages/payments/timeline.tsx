import { CopyId } from "../../components/copy-id";
import { EmptyState } from "../../components/states";
import { DateTime, Money } from "../../components/values";
import type { PaymentHistory } from "./payment-history";
import type { PaymentRecord } from "./records";

interface Entry {
  at: string;
  title: string;
  id?: string;
  amountMinor?: string | null;
}

/** The payment's state changes, oldest first: its creation, its refunds' requests, and every event. */
export function Timeline({ label, history, refunds }: { label: string; history: PaymentHistory; refunds: PaymentRecord[] }) {
  const entries: Entry[] = [];
  if (history.record) entries.push({ at: history.record.createdAt, title: `${label} created` });
  for (const refund of refunds) entries.push({ at: refund.createdAt, title: "refund requested", id: refund.id, amountMinor: refund.amountMinor });
  for (const event of history.events) entries.push({ at: event.createdAt, title: event.type, id: event.id });
  entries.sort((a, b) => a.at.localeCompare(b.at));
  if (entries.length === 0) {
    return <EmptyState title="No state changes recorded yet.">Events appear here as the payment moves (paid, failed, refunded…).</EmptyState>;
  }
  return (
    <ol className="timeline" aria-label="Timeline">
      {entries.map((entry) => (
        <li key={`${entry.at}/${entry.title}/${entry.id ?? ""}`}>
          <DateTime iso={entry.at} />
          <strong>{entry.title}</strong>
          {entry.amountMinor ? <Money minor={entry.amountMinor} /> : null}
          {entry.id ? <CopyId value={entry.id} /> : null}
        </li>
      ))}
    </ol>
  );
}

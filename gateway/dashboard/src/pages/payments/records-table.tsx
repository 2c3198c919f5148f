import type { ColumnDef } from "@tanstack/react-table";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { DateTime, Money, Status } from "../../components/values";
import { humanize, methodLabel, providerLabel } from "../../format";
import type { PaymentRecord } from "./records";

const columns: ColumnDef<PaymentRecord, unknown>[] = [
  { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
  { header: "Type", cell: ({ row }) => humanize(row.original.type) },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.id} /> },
  { header: "Reference", cell: ({ row }) => <CopyId value={row.original.referenceId} label="reference" /> },
  { header: "Amount", cell: ({ row }) => <Money minor={row.original.amountMinor} /> },
  { header: "Fee", cell: ({ row }) => <FeeCell record={row.original} /> },
  { header: "Net", cell: ({ row }) => (row.original.netMinor ? <Money minor={row.original.netMinor} /> : <span className="muted">—</span>) },
  { header: "Status", cell: ({ row }) => <Status value={row.original.status} /> },
  { header: "Method", cell: ({ row }) => (row.original.paymentMethod ? methodLabel(row.original.paymentMethod) : <span className="muted">—</span>) },
  { header: "Provider", cell: ({ row }) => <ProviderCell record={row.original} /> },
];

/** The provider's fee; a paid payment whose provider did not report it says so rather than showing nothing. */
function FeeCell({ record }: { record: PaymentRecord }) {
  if (record.feeMinor) return <Money minor={record.feeMinor} />;
  // Only a payment that took money has a fee to report (refunds have one only when charged).
  const paid = record.type !== "refund" && record.type !== "subscription" && ["paid", "succeeded"].includes(record.status ?? "");
  return <span className="muted">{paid && record.feeMinor === null ? "not reported" : "—"}</span>;
}

/** Checkouts and intents: the provider that took the payment, and the project's account it was made at (routing chose it). */
function ProviderCell({ record }: { record: PaymentRecord }) {
  if (!record.provider) return <span className="muted">—</span>;
  return (
    <span className="record-provider">
      {providerLabel(record.provider)}
      {record.providerAccountId ? (
        <>
          {" "}
          <CopyId value={record.providerAccountId} label="provider account id" />
        </>
      ) : null}
    </span>
  );
}

export function RecordsTable({ records, onOpen }: { records: PaymentRecord[]; onOpen: (record: PaymentRecord) => void }) {
  return <DataTable caption="Payment records" columns={columns} rows={records} rowId={(record) => record.id} onOpen={onOpen} />;
}

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { request } from "../../api/client";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime } from "../../components/values";
import { IssueKeyForm } from "./issue-key-form";
import { RevokeKeyAction } from "./revoke-key-action";
import { projectKeys, projectPath, type ApiKeySummary } from "./types";

/** The project's API keys (revoked ones too), issuing a key, revoking one. */
export function ApiKeysSection({ projectId }: { projectId: string }) {
  const keys = useQuery({
    queryKey: projectKeys.apiKeys(projectId),
    queryFn: () => request<ApiKeySummary[]>(`${projectPath(projectId)}/api-keys`),
  });
  const columns: ColumnDef<ApiKeySummary, unknown>[] = [
    { header: "Key", cell: ({ row }) => <code className="key-text">{`${row.original.keyPrefix}…${row.original.keyLast4 ?? ""}`}</code> },
    { header: "Environment", cell: ({ row }) => <span className={`env-tag env-${row.original.environment}`}>{row.original.environment}</span> },
    {
      header: "State",
      cell: ({ row }) =>
        row.original.revokedAt ? (
          <span className="status status-bad">Revoked</span>
        ) : (
          <span className="status status-good">Active</span>
        ),
    },
    { header: "Id", cell: ({ row }) => <CopyId value={row.original.keyId} label="key id" /> },
    { header: "Created", cell: ({ row }) => <DateTime iso={row.original.createdAt} /> },
    { header: "Last used", cell: ({ row }) => (row.original.lastUsedAt ? <DateTime iso={row.original.lastUsedAt} /> : <span className="muted">Never</span>) },
    { header: "Revoked", cell: ({ row }) => <DateTime iso={row.original.revokedAt} /> },
    {
      header: "Action",
      cell: ({ row }) => (row.original.revokedAt ? null : <RevokeKeyAction projectId={projectId} apiKey={row.original} />),
    },
  ];

  return (
    <section className="api-keys" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <IssueKeyForm projectId={projectId} />
      {keys.isPending ? (
        <Loading what="API keys" />
      ) : keys.error ? (
        <ErrorState error={keys.error} retry={() => void keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <EmptyState title="This project has no API keys">Issue a test key above to call the API for this project.</EmptyState>
      ) : (
        <DataTable caption="API keys" columns={columns} rows={keys.data} rowId={(key) => key.keyId} />
      )}
    </section>
  );
}

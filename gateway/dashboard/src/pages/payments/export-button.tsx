import { useState } from "react";
import type { ActingFor } from "../../api/client";
import { ErrorState } from "../../components/states";
import { csvFileName, downloadBlob, fileNameOf } from "./csv";
import { recordsExport, type RecordFilters } from "./records";

/**
 * Downloads every record of the current filters as the gateway's CSV export (no cap: the gateway
 * streams it). The body is read into a Blob, which the browser keeps on disk when large, because
 * the session's project/environment headers rule out a plain link.
 */
export function ExportButton({ actingFor, filters }: { actingFor: ActingFor; filters: RecordFilters }) {
  const [state, setState] = useState<{ busy: boolean; error?: unknown; note?: string }>({ busy: false });
  const run = async () => {
    setState({ busy: true });
    try {
      const response = await recordsExport(actingFor, filters);
      const blob = await response.blob();
      const fileName = fileNameOf(response.headers.get("Content-Disposition")) ?? csvFileName(actingFor.environment);
      downloadBlob(blob, fileName);
      setState({ busy: false, note: `Downloaded ${fileName}.` });
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return (
    <>
      <button type="button" onClick={() => void run()} disabled={state.busy}>
        {state.busy ? "Exporting…" : "Export CSV"}
      </button>
      {state.note ? (
        <span className="muted" role="status">
          {state.note}
        </span>
      ) : null}
      {state.error ? <ErrorState error={state.error} /> : null}
    </>
  );
}

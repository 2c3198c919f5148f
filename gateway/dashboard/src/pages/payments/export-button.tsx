import { useState } from "react";
import type { ActingFor } from "../../api/client";
import { ErrorState } from "../../components/states";
import { csvFileName, downloadText, recordsCsv } from "./csv";
import { allRecords, maxPages, type RecordFilters } from "./records";

/** Downloads every record of the current filters (up to 50 pages) as CSV, built in the browser. */
export function ExportButton({ actingFor, filters }: { actingFor: ActingFor; filters: RecordFilters }) {
  const [state, setState] = useState<{ busy: boolean; error?: unknown; note?: string }>({ busy: false });
  const run = async () => {
    setState({ busy: true });
    try {
      const { records, capped } = await allRecords(actingFor, filters);
      downloadText(recordsCsv(records), csvFileName(actingFor.environment));
      setState({
        busy: false,
        note: capped
          ? `Exported the first ${records.length} records only (${maxPages} pages); narrow the filters to export the rest.`
          : `Exported ${records.length} records.`,
      });
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

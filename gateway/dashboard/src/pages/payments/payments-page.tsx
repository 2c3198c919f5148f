import { useMemo } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import { useActingFor } from "../../workspace";
import { ExportButton } from "./export-button";
import { RecordSearch, searchFieldNames } from "./record-search";
import { pageOf } from "./resource-kinds";
import { RecordsFilters } from "./records-filters";
import { RecordsList } from "./records-list";
import { recordFiltersOf, searchOf, viewFiltersOf, type ViewFilters } from "./url-filters";

/** The records feed: filters and reference in the URL, paged, each row opening its detail. */
export function PaymentsPage() {
  const actingFor = useActingFor();
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const view = useMemo(() => viewFiltersOf(params), [params]);
  const filters = useMemo(() => recordFiltersOf(view), [view]);
  const setView = (next: ViewFilters) => setParams(searchOf(next));
  const query = new URLSearchParams(searchOf(view)).toString();
  const open = (id: string) => navigate(pageOf(id));

  if (!actingFor) return null;
  return (
    <>
      <h1>Payments</h1>
      <RecordSearch key={searchFieldNames.map((name) => view[name]).join("\u0000")} view={view} onSearch={setView} onOpen={open} />
      <RecordsFilters filters={view} onChange={setView} />
      <div className="toolbar">
        <ExportButton actingFor={actingFor} filters={filters} />
        {query ? <Link href="/payments">Clear all filters</Link> : null}
      </div>
      <RecordsList
        key={`${actingFor.projectId}/${actingFor.environment}?${query}`}
        actingFor={actingFor}
        filters={filters}
        filtered={query !== ""}
        onOpen={(record) => open(record.id)}
      />
    </>
  );
}

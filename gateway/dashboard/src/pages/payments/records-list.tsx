import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ActingFor } from "../../api/client";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { recordsPage, type PaymentRecord, type RecordFilters } from "./records";
import { RecordsTable } from "./records-table";

const pageSize = 50;

/**
 * One page of the feed at a time. `cursors` is the stack of cursors that led here (empty on the
 * first page): Next pushes the page's nextCursor, Previous pops. The parent remounts this list
 * when the filters change, so paging starts over.
 */
export function RecordsList({ actingFor, filters, filtered, onOpen }: { actingFor: ActingFor; filters: RecordFilters; filtered: boolean; onOpen: (record: PaymentRecord) => void }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const page = useQuery({
    queryKey: ["records", actingFor.projectId, actingFor.environment, filters, cursor],
    queryFn: () => recordsPage(actingFor, filters, cursor, pageSize),
    placeholderData: keepPreviousData,
  });

  if (page.isPending) return <Loading what="payments" />;
  if (page.isError) return <ErrorState error={page.error} retry={() => void page.refetch()} />;
  const { records, nextCursor } = page.data;
  return (
    <>
      {records.length === 0 ? (
        filtered ? (
          <EmptyState title="No records match these filters.">Widen the dates or the amounts, pick another type, status or method, or clear the search.</EmptyState>
        ) : (
          <EmptyState title={`No payments in ${actingFor.environment} mode yet.`}>
            Create a checkout with this project's {actingFor.environment} API key (the README's curl tour shows how); it appears here moments later.
          </EmptyState>
        )
      ) : (
        <RecordsTable records={records} onOpen={onOpen} />
      )}
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors((stack) => stack.slice(0, -1))}>
          Previous
        </button>
        <span className="muted">Page {cursors.length + 1}</span>
        <button type="button" disabled={!nextCursor || page.isPlaceholderData} onClick={() => nextCursor && setCursors((stack) => [...stack, nextCursor])}>
          Next
        </button>
      </nav>
    </>
  );
}

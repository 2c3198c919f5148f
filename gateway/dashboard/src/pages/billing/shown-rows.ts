import { useState } from "react";

const pageSize = 20;

/**
 * Paging of a list the gateway answers whole (payment links, plans): the first 20 rows, then 20
 * more per "Load more".
 */
export function useShownRows<Row>(rows: Row[] | undefined) {
  const [shown, setShown] = useState(pageSize);
  const all = rows ?? [];
  return {
    rows: all.slice(0, shown),
    hasMore: all.length > shown,
    loadMore: () => setShown((count) => count + pageSize),
  };
}

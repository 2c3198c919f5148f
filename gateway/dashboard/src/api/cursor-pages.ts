import { useInfiniteQuery, type QueryKey } from "@tanstack/react-query";

/** One page of a cursor-paged list: its items, and the cursor of the next page when there is one. */
export interface CursorPage<Item> {
  items: Item[];
  nextCursor?: string;
}

/**
 * A cursor-paged list (the gateway's `limit`/`cursor` → `nextCursor` listings), read page by page:
 * `items` holds every page loaded so far, `loadMore` asks for the next one. `refreshWhile` keeps the
 * loaded pages fresh while it holds (e.g. while an attempt is pending).
 */
export function useCursorPages<Item>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => Promise<CursorPage<Item>>,
  options: { refreshWhile?: (items: Item[]) => boolean } = {},
) {
  const { refreshWhile } = options;
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    // While something listed is still changing (a pending attempt), look again every second.
    refetchInterval: (current) =>
      refreshWhile?.(current.state.data?.pages.flatMap((page) => page.items) ?? []) ? 1_000 : false,
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items) ?? [],
    isPending: query.isPending,
    error: query.error,
    refetch: () => void query.refetch(),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

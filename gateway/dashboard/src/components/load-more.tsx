import "./load-more.css";

/** "Load more" under a paged list; absent once the last page is shown. */
export function LoadMore({ hasMore, loading, onLoad, what }: { hasMore: boolean; loading: boolean; onLoad: () => void; what: string }) {
  if (!hasMore) return null;
  return (
    <p className="load-more">
      <button type="button" onClick={onLoad} disabled={loading}>
        {loading ? `Loading more ${what}…` : `Load more ${what}`}
      </button>
    </p>
  );
}

import { granularities, groupings, lastDays, rangeError, type Granularity, type Grouping, type SummaryQuery } from "./summary";

/** The default range: the last 30 Philippine days, today included. */
export const defaultDays = 30;

/** The overview's view as its URL query (from, to, granularity, groupBy): a link reproduces it. */
export interface OverviewView {
  query: SummaryQuery;
  /** Why the range cannot be asked for; nothing is asked then. */
  error?: string;
}

export function overviewViewOf(params: URLSearchParams, now = new Date()): OverviewView {
  const fallback = lastDays(defaultDays, now);
  const granularity = params.get("granularity") ?? "";
  const groupBy = params.get("groupBy") ?? "";
  const query: SummaryQuery = {
    from: params.get("from") ?? fallback.from,
    to: params.get("to") ?? fallback.to,
    granularity: (granularities as readonly string[]).includes(granularity) ? (granularity as Granularity) : "day",
    groupBy: (groupings as readonly string[]).includes(groupBy) ? (groupBy as Grouping) : undefined,
  };
  return { query, error: rangeError(query.from, query.to) };
}

/** The URL query of a view; the default granularity and no split are left out. */
export function overviewSearchOf(query: SummaryQuery): Record<string, string> {
  const search: Record<string, string> = { from: query.from, to: query.to };
  if (query.granularity !== "day") search.granularity = query.granularity;
  if (query.groupBy) search.groupBy = query.groupBy;
  return search;
}

import type { RecordFilters } from "./records";

/** The payments list's view as its URL query: a link reproduces it. Days are the viewer's local days. */
export interface ViewFilters {
  type: string;
  status: string;
  /** Local day "2026-11-01", inclusive. */
  from: string;
  /** Local day, inclusive. */
  to: string;
  reference: string;
}

const names: (keyof ViewFilters)[] = ["type", "status", "from", "to", "reference"];
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export function viewFiltersOf(params: URLSearchParams): ViewFilters {
  const get = (name: string) => params.get(name) ?? "";
  return { type: get("type"), status: get("status"), from: get("from"), to: get("to"), reference: get("reference") };
}

export function searchOf(filters: ViewFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of names) if (filters[name]) query[name] = filters[name];
  return query;
}

/** The local midnight starting `day` plus `offsetDays`, as ISO; undefined for a malformed day. */
function localMidnight(day: string, offsetDays: number): string | undefined {
  const match = dayPattern.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + offsetDays);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The feed's filters: from's local midnight (inclusive) to the midnight after `to` (exclusive). */
export function recordFiltersOf(filters: ViewFilters): RecordFilters {
  return {
    type: filters.type || undefined,
    status: filters.status || undefined,
    createdAfter: filters.from ? localMidnight(filters.from, 0) : undefined,
    createdBefore: filters.to ? localMidnight(filters.to, 1) : undefined,
    referenceId: filters.reference || undefined,
  };
}

import { parseAmountBound } from "./amount-filter";
import type { RecordFilters } from "./records";

/**
 * The payments list's view as its URL query: a link reproduces it. Days are the viewer's local
 * days; amounts are pesos as typed (the feed gets centavos).
 */
export interface ViewFilters {
  type: string;
  status: string;
  /** Local day "2026-11-01", inclusive. */
  from: string;
  /** Local day, inclusive. */
  to: string;
  reference: string;
  customer: string;
  /** `key=value`. */
  metadata: string;
  /** Pesos, inclusive: "150.00", "-300.50". */
  amountMin: string;
  amountMax: string;
  /** Bayad's method name. */
  method: string;
  /** A provider account id. */
  account: string;
}

const names = ["type", "status", "from", "to", "reference", "customer", "metadata", "amountMin", "amountMax", "method", "account"] as const satisfies readonly (keyof ViewFilters)[];
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export function viewFiltersOf(params: URLSearchParams): ViewFilters {
  const view = {} as ViewFilters;
  for (const name of names) view[name] = params.get(name) ?? "";
  return view;
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

/** A metadata filter must name a key: "key=value", split at the first "=" (the value may hold more). */
export function metadataError(text: string): string | undefined {
  if (!text) return undefined;
  const at = text.indexOf("=");
  return at > 0 ? undefined : "Write metadata as key=value, like orderId=ORD-1001.";
}

/** Why a view's typed filters cannot apply, by field; empty when they all can. */
export function viewFilterErrors(filters: ViewFilters): Partial<Record<"metadata" | "amountMin" | "amountMax", string>> {
  const errors: Partial<Record<"metadata" | "amountMin" | "amountMax", string>> = {};
  const metadata = metadataError(filters.metadata);
  if (metadata) errors.metadata = metadata;
  for (const name of ["amountMin", "amountMax"] as const) {
    const bound = filters[name] ? parseAmountBound(filters[name]) : undefined;
    if (bound && "error" in bound) errors[name] = bound.error;
  }
  const min = filters.amountMin ? parseAmountBound(filters.amountMin) : undefined;
  const max = filters.amountMax ? parseAmountBound(filters.amountMax) : undefined;
  if (min && max && "minor" in min && "minor" in max && BigInt(min.minor) > BigInt(max.minor)) {
    errors.amountMax = "The largest amount is below the smallest.";
  }
  return errors;
}

const minorOf = (text: string) => {
  const bound = text ? parseAmountBound(text) : undefined;
  return bound && "minor" in bound ? bound.minor : undefined;
};

/**
 * The feed's filters: from's local midnight (inclusive) to the midnight after `to` (exclusive),
 * amounts in centavos. A filter that cannot apply (see viewFilterErrors) is left out.
 */
export function recordFiltersOf(filters: ViewFilters): RecordFilters {
  return {
    type: filters.type || undefined,
    status: filters.status || undefined,
    createdAfter: filters.from ? localMidnight(filters.from, 0) : undefined,
    createdBefore: filters.to ? localMidnight(filters.to, 1) : undefined,
    referenceId: filters.reference || undefined,
    customerId: filters.customer || undefined,
    metadata: filters.metadata && !metadataError(filters.metadata) ? filters.metadata : undefined,
    amountMin: minorOf(filters.amountMin),
    amountMax: minorOf(filters.amountMax),
    paymentMethod: filters.method || undefined,
    providerAccountId: filters.account || undefined,
  };
}

import { AppError, type CursorCodec, type CursorScope, type PagePosition } from "@bayad/kit";
import type { Filter } from "@bayad/store";

/** A listing request as proto3 carries it: a zero limit and an empty cursor mean "not given". */
export interface PageRequest {
  limit: number;
  cursor: string;
}

export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/** What the service's cursors are keyed for (with SECRETS_KEY), apart from its other digests. */
export const WEBHOOKS_CURSOR_PURPOSE = "webhooks-cursor";

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** The problem with a page size, if any (for a VALIDATION_FAILED naming `limit`). */
export function limitProblem(limit: number): string | undefined {
  return Number.isInteger(limit) && limit >= 0 && limit <= MAX_PAGE_LIMIT ? undefined : `limit: must be from 1 to ${MAX_PAGE_LIMIT}`;
}

/**
 * Narrows `filter` to the items after `after` in listing order (createdAt descending, then id
 * descending): a keyset continuation, never an offset, so items added meanwhile cannot shift what
 * comes next. The redundant bound on createdAt lets the index walk start at the position.
 */
export function continueAfter(filter: Filter, after: PagePosition | undefined): Filter {
  if (!after) return filter;
  const createdAt = { ...(filter.createdAt as Record<string, Date> | undefined), $lte: after.createdAt };
  return {
    ...filter,
    createdAt,
    $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }],
  };
}

/** Newest first, ties broken by id so the order is total. */
export const listingOrder = { createdAt: -1, _id: -1 } as const;

/**
 * One page of a listing, newest first: reads one more item than asked to tell whether another
 * page exists, and issues the cursor for it bound to `scope`.
 */
export async function pageOf<T extends { _id: string; createdAt: Date }>(
  cursors: CursorCodec,
  scope: CursorScope,
  request: PageRequest,
  find: (after: PagePosition | undefined, limit: number) => Promise<T[]>,
): Promise<Page<T>> {
  const problem = limitProblem(request.limit);
  if (problem) throw new AppError("VALIDATION_FAILED", undefined, { details: [problem] });
  const after = request.cursor !== "" ? cursors.read(request.cursor, scope) : undefined;
  const limit = request.limit === 0 ? DEFAULT_PAGE_LIMIT : request.limit;
  const found = await find(after, limit + 1);
  const items = found.slice(0, limit);
  const last = items[items.length - 1];
  if (found.length <= limit || !last) return { items };
  return { items, nextCursor: cursors.issue({ createdAt: last.createdAt, id: last._id }, scope) };
}

import { isDeepStrictEqual } from "node:util";
import type { CheckOptions } from "./checks.js";
import { expectedCheckoutStatus, isSuccess, resourceIdOf, type ApiClient, type Journal } from "./journal.js";

/**
 * The records feed converges to exactly one record per checkout and refund this run made (the
 * events still in an outbox at the kill are published after the restart), each as it now is:
 * none missing, none twice, none the journal cannot account for (a second checkout or refund
 * made by one request).
 */

interface ExpectedRecord {
  type: "checkout" | "refund";
  referenceId: string | null;
  relatedResourceId: string | null;
  amountMinor: string;
  status: string;
}

function expectedRecords(journal: Journal): Map<string, ExpectedRecord> {
  const expected = new Map<string, ExpectedRecord>();
  for (const entry of journal.entries) {
    if (!isSuccess(entry.settled)) continue;
    const body = entry.body as { referenceId?: string; amount: { amountMinor: number } };
    if (entry.operation === "createCheckout") {
      const id = resourceIdOf(entry, entry.settled);
      const status = expectedCheckoutStatus(journal, id);
      expected.set(id, { type: "checkout", referenceId: body.referenceId!, relatedResourceId: null, amountMinor: String(body.amount.amountMinor), status });
    }
    if (entry.operation === "createRefund") {
      expected.set(resourceIdOf(entry, entry.settled), {
        type: "refund",
        referenceId: null,
        relatedResourceId: entry.checkoutId!,
        amountMinor: String(-body.amount.amountMinor),
        status: "pending",
      });
    }
  }
  return expected;
}

async function walkFeed(client: ApiClient): Promise<any[]> {
  const records: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request("GET", `/api/v1/payments/records?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (page.status !== 200) throw new Error(`the records feed answered ${page.status}: ${JSON.stringify(page.body)}`);
    records.push(...page.body.data.records);
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return records;
}

/** What differs between the feed and what is expected; empty when they agree. */
function differences(feed: any[], expected: Map<string, ExpectedRecord>): string[] {
  const found: string[] = [];
  const seen = new Map<string, number>();
  for (const record of feed) seen.set(record.id, (seen.get(record.id) ?? 0) + 1);
  for (const [id, count] of seen) if (count > 1) found.push(`${id} is in the feed ${count} times`);
  const byId = new Map(feed.map((record) => [record.id, record]));
  for (const [id, want] of expected) {
    const record = byId.get(id);
    if (!record) {
      found.push(`${want.type} ${id} is missing from the feed`);
      continue;
    }
    const got = { type: record.type, referenceId: record.referenceId, relatedResourceId: record.relatedResourceId, amountMinor: record.amountMinor, status: record.status };
    if (!isDeepStrictEqual(got, want)) found.push(`${id}: the feed has ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  for (const record of feed) {
    if (!expected.has(record.id)) found.push(`${record.type} ${record.id} (${record.referenceId ?? record.relatedResourceId}) is in the feed but no request of the journal made it`);
  }
  return found;
}

export async function checkFeed(options: CheckOptions): Promise<void> {
  const expected = expectedRecords(options.journal);
  const deadline = Date.now() + options.feedDeadlineMs;
  for (;;) {
    let found: string[];
    try {
      found = differences(await walkFeed(options.client), expected);
    } catch (error) {
      found = [(error as Error).message];
    }
    if (found.length === 0) return;
    if (Date.now() > deadline) {
      const shown = found.slice(0, 20);
      if (found.length > shown.length) shown.push(`… and ${found.length - shown.length} more`);
      options.journal.problems.push(`the records feed did not converge in ${options.feedDeadlineMs} ms: ${shown.join("; ")}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

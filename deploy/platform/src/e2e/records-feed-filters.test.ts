import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * The records feed's exact-match filters over HTTP: `referenceId` (find a payment by the
 * consumer's reference) and `relatedResourceId` (a payment's refunds), each bound into the cursor.
 */

const records = "/api/v1/payments/records";

interface FeedRecord {
  type: string;
  id: string;
  referenceId: string | null;
  relatedResourceId: string | null;
  createdAt: string;
}

/** The feed's order: newest first, then by id descending. */
function inFeedOrder(a: FeedRecord, b: FeedRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

async function page(query: string, credential: string) {
  return api.request("GET", `${records}?${query}`, { credential });
}

/** Every record the filter `query` answers, page by page (pages of 1, to cross page boundaries). */
async function walk(query: string, credential: string): Promise<FeedRecord[]> {
  const all: FeedRecord[] = [];
  let cursor: string | undefined;
  do {
    const response = await page(`${query}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, credential);
    expect(response.status).toBe(200);
    all.push(...(response.body.data.records as FeedRecord[]));
    cursor = response.body.data.nextCursor as string | undefined;
  } while (cursor);
  return all;
}

/** Two paid checkouts, two refunds of the first and one of the second, all in the feed. */
async function paymentsWithRefunds(credential: string) {
  const first = await api.paidCheckout(credential);
  const second = await api.paidCheckout(credential);
  const refund = async (paymentId: string, amountMinor: number) => {
    const response = await api.request("POST", "/api/v1/payments/refunds", {
      credential,
      body: { paymentId, amount: { amountMinor, currency: "PHP" }, reason: "requested_by_customer" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data.refundId as string;
  };
  const firstRefunds = [await refund(first.checkoutId, 100_00), await refund(first.checkoutId, 50_00)];
  const secondRefund = await refund(second.checkoutId, 25_00);
  const expected = [first.checkoutId, second.checkoutId, ...firstRefunds, secondRefund];
  await eventually(async () => {
    const response = await page("limit=200", credential);
    const ids = (response.body.data.records as FeedRecord[]).map((record) => record.id);
    return expected.every((id) => ids.includes(id)) ? true : undefined;
  }, 20_000);
  return { first, second, firstRefunds, secondRefund };
}

describe("records feed filters", () => {
  it("relatedResourceId answers exactly the payment's refunds, in feed order, across pages", async () => {
    const project = await api.newProject();
    const { first, second, firstRefunds, secondRefund } = await paymentsWithRefunds(project.testKey);

    const refundsOfFirst = await walk(`relatedResourceId=${first.checkoutId}`, project.testKey);
    expect(refundsOfFirst.map((record) => record.id).sort()).toEqual([...firstRefunds].sort());
    expect(refundsOfFirst).toEqual([...refundsOfFirst].sort(inFeedOrder));
    expect(refundsOfFirst.every((record) => record.type === "refund" && record.relatedResourceId === first.checkoutId)).toBe(true);
    expect((await walk(`relatedResourceId=${second.checkoutId}`, project.testKey)).map((record) => record.id)).toEqual([secondRefund]);
    // Combined with the other filters, and only in the caller's project and environment.
    expect(await walk(`relatedResourceId=${first.checkoutId}&type=checkout`, project.testKey)).toEqual([]);
    const other = await api.newProject();
    expect(await walk(`relatedResourceId=${first.checkoutId}`, other.testKey)).toEqual([]);
    expect(await walk(`relatedResourceId=${first.checkoutId}`, project.liveKey)).toEqual([]);
  });

  it("referenceId answers exactly the records with that reference", async () => {
    const project = await api.newProject();
    const { first, second } = await paymentsWithRefunds(project.testKey);

    const found = await walk(`referenceId=${encodeURIComponent(first.referenceId)}`, project.testKey);
    expect(found.map((record) => [record.id, record.referenceId])).toEqual([[first.checkoutId, first.referenceId]]);
    expect((await walk(`referenceId=${encodeURIComponent(second.referenceId)}`, project.testKey)).map((record) => record.id)).toEqual([second.checkoutId]);
    // Exact, not a prefix.
    expect(await walk(`referenceId=${encodeURIComponent(first.referenceId.slice(0, -1))}`, project.testKey)).toEqual([]);
  });

  it("refuses a cursor issued for other filters, naming cursor", async () => {
    const project = await api.newProject();
    const { first, second } = await paymentsWithRefunds(project.testKey);
    const related = (await page(`relatedResourceId=${first.checkoutId}&limit=1`, project.testKey)).body.data.nextCursor as string;
    const unfiltered = (await page("limit=1", project.testKey)).body.data.nextCursor as string;
    expect(related).toEqual(expect.any(String));
    expect(unfiltered).toEqual(expect.any(String));

    for (const query of [
      `relatedResourceId=${second.checkoutId}&cursor=${encodeURIComponent(related)}`,
      `cursor=${encodeURIComponent(related)}`,
      `referenceId=${encodeURIComponent(first.referenceId)}&cursor=${encodeURIComponent(related)}`,
      `relatedResourceId=${first.checkoutId}&cursor=${encodeURIComponent(unfiltered)}`,
      `referenceId=${encodeURIComponent(first.referenceId)}&cursor=${encodeURIComponent(unfiltered)}`,
    ]) {
      const response = await page(`limit=1&${query}`, project.testKey);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details, query).toEqual([expect.stringMatching(/^cursor\b/)]);
    }
    // The same filters continue.
    const next = await page(`relatedResourceId=${first.checkoutId}&limit=1&cursor=${encodeURIComponent(related)}`, project.testKey);
    expect(next.status).toBe(200);
  });

  it("refuses an empty or overlong filter with a 400 naming it", async () => {
    for (const parameter of ["referenceId", "relatedResourceId"]) {
      for (const value of ["", "x".repeat(256)]) {
        const response = await api.request("GET", `${records}?${parameter}=${value}`);
        expectError(response, 400, "VALIDATION_FAILED");
        expect(response.body.error.details).toEqual([expect.stringMatching(new RegExp(`^${parameter}\\b`))]);
      }
    }
  });
});

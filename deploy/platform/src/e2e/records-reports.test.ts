import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * Issue 45 end to end: the records feed's search filters, the CSV export and the payments summary
 * (with the operators' totals rebuild), over HTTP against the whole platform. One fresh project
 * makes two paid checkouts (with metadata), one failed checkout and a succeeded refund; the
 * export must list what the feed lists, and the summary must add up to the same records.
 */

const records = "/api/v1/payments/records";

interface FeedRecord {
  type: string;
  id: string;
  amountMinor: string | null;
  status: string | null;
  paymentMethod: string | null;
  providerAccountId: string | null;
  feeMinor: string | null;
  netMinor: string | null;
  metadata: Record<string, string>;
}

let api: TestPlatform;
let project: Awaited<ReturnType<TestPlatform["newProject"]>>;
const orderA = `ORD-A-${Date.now()}`;
let paidA: string;
let paidB: string;
let failed: string;
let refund: string;

/** Philippine calendar day (UTC+8) `offsetDays` from today, YYYY-MM-DD. */
function philippineDay(offsetDays = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

async function list(query: string): Promise<FeedRecord[]> {
  const response = await api.request("GET", `${records}?limit=200&${query}`, { credential: project.testKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.records as FeedRecord[];
}

async function checkout(amountMinor: number, metadata: Record<string, string>, outcome: "pay" | "fail") {
  const created = await api.request("POST", "/api/v1/payments/checkouts", {
    credential: project.testKey,
    body: { referenceId: `ref-${outcome}-${amountMinor}-${Date.now()}`, amount: { amountMinor, currency: "PHP" }, successUrl: "https://shop.example.ph/ok", cancelUrl: "https://shop.example.ph/no", metadata },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.checkoutId as string;
  const done = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${id}/${outcome}`, { credential: project.testKey });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return id;
}

async function exportCsv(query: string): Promise<Response> {
  return fetch(`${api.platform.gatewayUrl}${records}/export?${query}`, { headers: { Authorization: `Bearer ${project.testKey}` } });
}

/** The data lines of an export (after the header), each line's first field being the record id. */
function exportedIds(csv: string): string[] {
  const lines = csv.split("\r\n");
  expect(lines.at(-1)).toBe("");
  return lines.slice(1, -1).map((line) => line.split(",")[0]!);
}

beforeAll(async () => {
  api = await startTestPlatform();
  project = await api.newProject("Reports");
  paidA = await checkout(1500_00, { orderId: orderA, note: "a=b" }, "pay");
  paidB = await checkout(250_00, { orderId: "ORD-B" }, "pay");
  failed = await checkout(99_00, {}, "fail");
  const created = await api.request("POST", "/api/v1/payments/refunds", {
    credential: project.testKey,
    body: { paymentId: paidA, amount: { amountMinor: 300_00, currency: "PHP" }, reason: "requested_by_customer" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  refund = created.body.data.refundId as string;
  const succeeded = await api.request("POST", `/api/v1/payments/test-helpers/refunds/${refund}/succeed`, { credential: project.testKey });
  expect(succeeded.status).toBe(200);
  await eventually(async () => {
    const all = await list("");
    const done = (id: string, status: string) => all.some((record) => record.id === id && record.status === status);
    return done(paidA, "paid") && done(paidB, "paid") && done(failed, "failed") && done(refund, "succeeded") ? true : undefined;
  }, 20_000);
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("records search", () => {
  it("shows method, fee and net, and metadata on each record", async () => {
    const [a] = (await list("")).filter((record) => record.id === paidA);
    expect(a!.metadata).toEqual({ orderId: orderA, note: "a=b" });
    // Set once paid; the sandbox takes the payment, so no provider account.
    expect(a!.paymentMethod).toEqual(expect.any(String));
    expect(a!.providerAccountId).toBeNull();
    if (a!.feeMinor !== null) expect(BigInt(a!.netMinor!)).toBe(150000n - BigInt(a!.feeMinor));
  });

  it("filters by metadata key=value (split at the first '='), amount range, method and absent customer or account", async () => {
    expect((await list(`metadata=${encodeURIComponent(`orderId=${orderA}`)}`)).map((r) => r.id)).toEqual([paidA]);
    expect((await list(`metadata=${encodeURIComponent("note=a=b")}`)).map((r) => r.id)).toEqual([paidA]);
    expect(await list(`metadata=${encodeURIComponent("note=a")}`)).toEqual([]);
    // Inclusive bounds on the signed amount: the refund is −300.00.
    expect((await list("amountMin=25000&amountMax=150000")).map((r) => r.id).sort()).toEqual([paidA, paidB].sort());
    expect((await list("amountMax=-1")).map((r) => r.id)).toEqual([refund]);
    expect((await list("amountMin=9900&amountMax=9900")).map((r) => r.id)).toEqual([failed]);
    const method = (await list("")).find((record) => record.id === paidB)!.paymentMethod!;
    const byMethod = await list(`paymentMethod=${method}`);
    expect(byMethod.map((r) => r.id)).toContain(paidB);
    expect(byMethod.every((record) => record.paymentMethod === method)).toBe(true);
    expect(await list("customerId=cus_nobody")).toEqual([]);
    expect(await list("providerAccountId=pa_nobody")).toEqual([]);
    const refused = await api.request("GET", `${records}?amountMin=2&amountMax=1`, { credential: project.testKey });
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual(["amountMin: must not exceed amountMax"]);
  });
});

describe("records export", () => {
  it("streams what the feed lists, in the same order, as CSV with the documented header", async () => {
    const response = await exportCsv("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="payment-records-test-\d{8}\.csv"$/);
    const csv = await response.text();
    expect(csv.split("\r\n")[0]).toBe(
      "id,type,status,createdAt,amountMinor,feeMinor,netMinor,currency,paymentMethod,provider,providerAccountId,referenceId,relatedResourceId,customerId,environment,metadata",
    );
    expect(exportedIds(csv)).toEqual((await list("")).map((record) => record.id));
    expect(csv).toContain(`"{""note"":""a=b"",""orderId"":""${orderA}""}"`);
  });

  it("takes the same filters as the feed", async () => {
    const csv = await (await exportCsv("amountMax=-1")).text();
    expect(exportedIds(csv)).toEqual([refund]);
    expect(csv).toContain(`${refund},refund,succeeded,`);
    expect(csv).toContain(",-30000,");
  });

  it("answers a bad filter with the JSON envelope, and another project's key exports none of these", async () => {
    const bad = await exportCsv("amountMin=x");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("VALIDATION_FAILED");
    const other = await api.newProject("Someone else");
    const theirs = await fetch(`${api.platform.gatewayUrl}${records}/export`, { headers: { Authorization: `Bearer ${other.testKey}` } });
    expect(exportedIds(await theirs.text())).toEqual([]);
  });
});

describe("payments summary", () => {
  const range = () => `from=${philippineDay(-1)}&to=${philippineDay(1)}`;

  async function summary(query: string) {
    const response = await api.request("GET", `/api/v1/payments/reports/summary?${query}`, { credential: project.testKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as {
      periods: Array<{ start: string; end: string; paymentMethod?: string | null; totals: Record<string, number | string> }>;
      total: Record<string, number | string>;
    };
  }

  it("adds up the records: paid, failed, refunded, fees and net", async () => {
    const feed = await list("");
    const paid = feed.filter((record) => record.type === "checkout" && record.status === "paid");
    const fee = paid.reduce((sum, record) => sum + BigInt(record.feeMinor ?? "0"), 0n) + BigInt(feed.find((r) => r.id === refund)!.feeMinor ?? "0");
    const data = await summary(range());
    expect(data.total).toEqual({
      paidCount: 2,
      paidMinor: "175000",
      failedCount: 1,
      failedMinor: "9900",
      refundedCount: 1,
      refundedMinor: "30000",
      feeMinor: String(fee),
      netMinor: String(175000n - fee - 30000n),
      unreportedFeeCount: paid.filter((record) => record.feeMinor === null).length,
    });
    // Every day of the range, in order, zero days included.
    expect(data.periods.map((period) => period.start)).toEqual([philippineDay(-1), philippineDay(0), philippineDay(1)]);
  });

  it("splits by payment method, the groups adding up to the total", async () => {
    const data = await summary(`${range()}&granularity=month&groupBy=payment_method`);
    expect(data.periods.every((period) => "paymentMethod" in period)).toBe(true);
    const paidCount = data.periods.reduce((sum, period) => sum + Number(period.totals.paidCount), 0);
    expect(paidCount).toBe(2);
  });

  it("refuses a reversed range naming to", async () => {
    const response = await api.request("GET", `/api/v1/payments/reports/summary?from=${philippineDay(1)}&to=${philippineDay(-1)}`, { credential: project.testKey });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(["to: must not be before from"]);
  });

  it("is rebuilt to the same totals by the operators' rebuild", async () => {
    const before = await summary(range());
    const rebuilt = await api.admin("POST", `/admin/v1/projects/${project.projectId}/payment-totals/rebuild`, { environment: "test" });
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect(rebuilt.body.data.recordsRead).toBe(4);
    expect(rebuilt.body.data.totalsWritten).toBeGreaterThan(0);
    expect(await summary(range())).toEqual(before);
  });
});

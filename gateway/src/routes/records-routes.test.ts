import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import {
  PaymentRecordSchema,
  PaymentsService,
  RecordsService,
  type ExportPaymentRecordsRequest,
  type GetPaymentsSummaryRequest,
  type ListPaymentRecordsRequest,
  type PaymentRecord,
  type RebuildPaymentTotalsRequest,
} from "@bayad/proto";
import { callerOf, createLogger, startServiceServer, type CallerContext, type RunningServer } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { readGatewayConfig } from "../config.js";
import { startGateway, type RunningGateway } from "../gateway.js";
import { createResponseValidator } from "../openapi/response-validator.js";
import { recordCsvHeader, recordCsvLine } from "./records-csv.js";

/*
 * The records, export, summary and totals-rebuild operations through a real gateway over HTTP,
 * routed to a RecordsService double (a real gRPC server) that records what it was asked and
 * streams as each test says. JSON answers are checked against the OpenAPI document.
 */

const logger = createLogger("test", process.env.LOG_LEVEL ?? "silent");
const checkResponse = createResponseValidator();
const adminKey = `adm_test_${randomBytes(16).toString("hex")}`;
const batchSize = 100;
const batchCount = 40;

function recordNumber(n: number): PaymentRecord {
  return create(PaymentRecordSchema, {
    type: n % 5 === 0 ? "refund" : "checkout",
    id: `chk_${String(n).padStart(6, "0")}`,
    projectId: "prj_x",
    environment: "test",
    referenceId: n % 7 === 0 ? `=evil,"${n}"` : `order-${n}`,
    amountMinor: n % 5 === 0 ? `-${n}00` : `${n}00`,
    currency: "PHP",
    status: "paid",
    createdAt: timestampFromMs(Date.UTC(2025, 0, 1) + n * 1000),
    paymentMethod: "gcash",
    feeMinor: n % 3 === 0 ? undefined : "25",
    netMinor: n % 3 === 0 ? undefined : `${n * 100 - 25}`,
    metadata: n % 2 === 0 ? { orderId: `ORD-${n}`, note: "line\nbreak" } : {},
  });
}

const allRecords = Array.from({ length: batchSize * batchCount }, (_, i) => recordNumber(i + 1));

/** What the double was asked, and how it answers an export (chosen by the request's status filter). */
const seen = {
  list: [] as ListPaymentRecordsRequest[],
  exports: [] as Array<{ request: ExportPaymentRecordsRequest; caller: CallerContext; timeoutMs: number | undefined }>,
  summaries: [] as GetPaymentsSummaryRequest[],
  rebuilds: [] as RebuildPaymentTotalsRequest[],
  exportFinished: 0,
};

async function* exportBatches(request: ExportPaymentRecordsRequest, context: HandlerContext) {
  seen.exports.push({ request, caller: callerOf(context), timeoutMs: context.timeoutMs() });
  try {
    if (request.status === "refuse") throw new ConnectError("records store down", Code.Unavailable);
    for (let i = 0; i < batchCount; i++) {
      if (request.status === "break" && i === 3) throw new ConnectError("lost the store mid-way", Code.Unavailable);
      yield { records: allRecords.slice(i * batchSize, (i + 1) * batchSize) };
      // An empty batch in between writes nothing.
      if (i === 1) yield { records: [] };
    }
  } finally {
    seen.exportFinished++;
  }
}

let payments: RunningServer;
let records: RunningServer;
let gateway: RunningGateway;
let store: Store;
let apiKey: string;
let projectId: string;

beforeAll(async () => {
  payments = await startServiceServer({
    serviceName: PaymentsService.typeName,
    routes: (router) => router.service(PaymentsService, { getCapabilities: () => ({ capabilities: { currency: "PHP" } }) }),
    isReady: async () => true,
    logger,
  });
  records = await startServiceServer({
    serviceName: RecordsService.typeName,
    routes: (router) =>
      router.service(RecordsService, {
        listPaymentRecords: (request) => {
          seen.list.push(request);
          return { records: allRecords.slice(0, 2), nextCursor: "" };
        },
        exportPaymentRecords: exportBatches,
        getPaymentsSummary: (request) => {
          seen.summaries.push(request);
          const totals = { paidCount: 2n, paidMinor: "30000", feeMinor: "50", netMinor: "29950", failedMinor: "0", refundedMinor: "0", unreportedFeeCount: 1n };
          return {
            periods: [
              { start: request.from, end: request.from, paymentMethod: "gcash", providerAccountId: "", totals },
              { start: request.from, end: request.from, paymentMethod: "", providerAccountId: "pa_1", totals },
            ],
            total: { ...totals, paidCount: 4n, paidMinor: "60000", feeMinor: "100", netMinor: "59900", unreportedFeeCount: 2n },
          };
        },
        rebuildPaymentTotals: (request) => {
          seen.rebuilds.push(request);
          return { recordsRead: 12n, totalsWritten: 3n };
        },
      }),
    isReady: async () => true,
    logger,
  });
  store = createEmbeddedStore();
  gateway = await startGateway({
    config: readGatewayConfig({ PORT: "0", ADMIN_API_KEY: adminKey, RECORDS_EXPORT_TIMEOUT_MS: "450000" }),
    store,
    services: { payments: payments.url, records: records.url },
    logger,
  });
  const project = await gateway.admin.projects.create("Kape Delivery");
  projectId = project.projectId;
  apiKey = (await gateway.admin.apiKeys.issue(projectId, "test")).apiKey;
});

afterAll(async () => {
  await gateway?.close();
  await store?.close();
  await records?.close();
  await payments?.close();
});

function get(path: string): Promise<Response> {
  return fetch(`${gateway.url}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } });
}

async function getJson(path: string) {
  const response = await get(path);
  const body: any = await response.json();
  expect(checkResponse("GET", path, response.status, body).problems).toEqual([]);
  return { status: response.status, body };
}

describe("GET /api/v1/payments/records", () => {
  it("passes the search filters to the rpc and shows the new fields", async () => {
    const answer = await getJson(
      "/api/v1/payments/records?customerId=cus_9&metadata=note%3Da%3Db&amountMin=-1500&amountMax=20000&paymentMethod=gcash&providerAccountId=pa_1&limit=2",
    );
    expect(answer.status).toBe(200);
    expect(seen.list.at(-1)).toMatchObject({
      customerId: "cus_9",
      metadataKey: "note",
      metadataValue: "a=b",
      amountMinMinor: -1500n,
      amountMaxMinor: 20000n,
      paymentMethod: "gcash",
      providerAccountId: "pa_1",
      limit: 2,
    });
    expect(answer.body.data.records[1]).toMatchObject({
      id: "chk_000002",
      paymentMethod: "gcash",
      customerId: null,
      feeMinor: "25",
      netMinor: "175",
      metadata: { orderId: "ORD-2", note: "line\nbreak" },
    });
    expect(answer.body.data.records[0]).toMatchObject({ feeMinor: "25", metadata: {} });
  });

  it("refuses bad filters with the envelope naming the field, before any rpc", async () => {
    const before = seen.list.length;
    for (const [query, field] of [
      ["metadata=novalue", "metadata"],
      ["metadata==x", "metadata"],
      ["amountMin=1.5", "amountMin"],
      ["amountMin=3&amountMax=2", "amountMin"],
      ["paymentMethod=cash", "paymentMethod"],
      ["providerAccountId=acct_1", "providerAccountId"],
      ["customerId=bob", "customerId"],
    ]) {
      const answer = await getJson(`/api/v1/payments/records?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe("VALIDATION_FAILED");
      expect(answer.body.error.details.join(" "), query).toContain(field);
    }
    expect(seen.list.length).toBe(before);
  });
});

describe("GET /api/v1/payments/records/export", () => {
  it("streams every batch as one CSV: header, then each record's line, in order", async () => {
    const response = await get("/api/v1/payments/records/export?type=checkout&metadata=k%3Dv&amountMin=0");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="payment-records-test-\d{8}\.csv"$/);
    expect(response.headers.get("content-length")).toBeNull();
    const text = await response.text();
    expect(text).toBe(recordCsvHeader + allRecords.map(recordCsvLine).join(""));
    const asked = seen.exports.at(-1)!;
    expect(asked.request).toMatchObject({ type: "checkout", metadataKey: "k", metadataValue: "v", amountMinMinor: 0n });
    // The caller's project and environment, as for the listing.
    expect(asked.caller).toMatchObject({ projectId, environment: "test" });
    // The export's own deadline, not the unary RPC_TIMEOUT_MS (10 s).
    expect(asked.timeoutMs).toBeGreaterThan(10_000);
  });

  it("answers a bad filter with the JSON envelope, before any CSV or rpc", async () => {
    const before = seen.exports.length;
    const answer = await getJson("/api/v1/payments/records/export?amountMax=x&limit=5");
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("VALIDATION_FAILED");
    expect(answer.body.error.details.join(" ")).toMatch(/amountMax/);
    expect(answer.body.error.details.join(" ")).toMatch(/limit/);
    expect(seen.exports.length).toBe(before);
  });

  it("answers a service that fails before the first batch with the JSON envelope", async () => {
    const answer = await getJson("/api/v1/payments/records/export?status=refuse");
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("destroys the response when the stream fails after it began: the client never gets a whole-looking file", async () => {
    const response = await get("/api/v1/payments/records/export?status=break");
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          received += decoder.decode(value, { stream: true });
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    // What did arrive is the start of the file, never more than the batches sent.
    expect(received.startsWith(recordCsvHeader)).toBe(true);
    expect(received.length).toBeLessThan((recordCsvHeader + allRecords.slice(0, 3 * batchSize).map(recordCsvLine).join("")).length + 1);
  });
});

describe("GET /api/v1/payments/reports/summary", () => {
  it("passes range, granularity and groups; answers the periods and total", async () => {
    const answer = await getJson(
      "/api/v1/payments/reports/summary?from=2025-01-01&to=2025-01-31&granularity=week&groupBy=payment_method&groupBy=provider_account",
    );
    expect(answer.status).toBe(200);
    expect(seen.summaries.at(-1)).toMatchObject({ from: "2025-01-01", to: "2025-01-31", granularity: "week", groupBy: ["payment_method", "provider_account"] });
    expect(answer.body.data.periods).toEqual([
      expect.objectContaining({ start: "2025-01-01", paymentMethod: "gcash", providerAccountId: null }),
      expect.objectContaining({ paymentMethod: null, providerAccountId: "pa_1" }),
    ]);
    expect(answer.body.data.total).toEqual({
      paidCount: 4,
      paidMinor: "60000",
      failedCount: 0,
      failedMinor: "0",
      refundedCount: 0,
      refundedMinor: "0",
      feeMinor: "100",
      netMinor: "59900",
      unreportedFeeCount: 2,
    });
  });

  it("leaves out the group keys not asked for, and defaults to days", async () => {
    const answer = await getJson("/api/v1/payments/reports/summary?from=2025-01-01&to=2025-01-01");
    expect(answer.status).toBe(200);
    expect(seen.summaries.at(-1)).toMatchObject({ granularity: "day", groupBy: [] });
    expect(Object.keys(answer.body.data.periods[0]).sort()).toEqual(["end", "start", "totals"]);
  });

  it("refuses a missing or reversed range, and unknown groups", async () => {
    for (const [query, field] of [
      ["to=2025-01-01", "from"],
      ["from=2025-01-02&to=2025-01-01", "to"],
      ["from=2025-02-30&to=2025-03-01", "from"],
      ["from=2025-01-01&to=2025-01-02&groupBy=customer", "groupBy"],
      ["from=2025-01-01&to=2025-01-02&granularity=year", "granularity"],
    ]) {
      const answer = await getJson(`/api/v1/payments/reports/summary?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.details.join(" "), query).toContain(field);
    }
  });
});

describe("POST /admin/v1/projects/{projectId}/payment-totals/rebuild", () => {
  async function rebuild(project: string, body?: unknown) {
    const path = `/admin/v1/projects/${project}/payment-totals/rebuild`;
    const response = await fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = await response.json();
    expect(checkResponse("POST", path, response.status, json).problems).toEqual([]);
    return { status: response.status, body: json };
  }

  it("asks the records service to rebuild one environment or both, and answers its counts", async () => {
    expect(await rebuild(projectId, { environment: "live" })).toMatchObject({ status: 200, body: { data: { recordsRead: 12, totalsWritten: 3 } } });
    expect(seen.rebuilds.at(-1)).toMatchObject({ projectId, environment: "live" });
    expect((await rebuild(projectId, {})).status).toBe(200);
    expect(seen.rebuilds.at(-1)).toMatchObject({ projectId, environment: "" });
  });

  it("refuses an unknown project and a bad environment", async () => {
    const before = seen.rebuilds.length;
    expect((await rebuild("prj_Nobody", {})).body.error.code).toBe("RESOURCE_NOT_FOUND");
    expect((await rebuild(projectId, { environment: "prod" })).status).toBe(400);
    expect((await rebuild(projectId)).status).toBe(400);
    expect(seen.rebuilds.length).toBe(before);
  });
});

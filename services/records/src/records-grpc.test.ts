import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { isFieldSet } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PaymentIntentStatus, PaymentRecordSchema, RecordsService, RefundStatus } from "@bayad/proto";
import { callerHeaders, createLogger, fromConnectError, type CallerContext, type RunningServer } from "@bayad/kit";
import { createInProcessBus, type EventBus } from "@bayad/events";
import { startRecordsServer } from "./server.js";
import { readRecordsConfig } from "./config.js";
import { at, eventOf, messageOf, php } from "./test-support/events.js";
import { createTestStore } from "@bayad/store/testing";

const caller = (projectId: string): { headers: Record<string, string> } => ({
  headers: callerHeaders({ projectId, environment: "test", correlationId: "records-grpc-test" } satisfies CallerContext),
});
const created = new Date("2026-04-01T10:00:00.000Z");

/** The service as the gateway reaches it: gRPC over HTTP/2, caller context in the metadata. */
describe("records service over gRPC (Connect client, HTTP/2)", () => {
  let bus: EventBus;
  let server: RunningServer;
  let client: Client<typeof RecordsService>;

  beforeAll(async () => {
    const logger = createLogger("test", "silent");
    bus = createInProcessBus({ redeliveryDelayMs: 5, logger });
    server = await startRecordsServer({ store: createTestStore(), bus, config: readRecordsConfig({}), logger });
    client = createClient(RecordsService, createGrpcTransport({ baseUrl: server.url }));

    await bus.publish(
      messageOf(
        eventOf(
          { case: "paymentIntent", value: { paymentIntentId: "pi_1", referenceId: "order-1", status: PaymentIntentStatus.AWAITING_NEXT_ACTION, amount: php(250_00), createdAt: at(created) } },
          { resourceId: "pi_1", projectId: "prj_grpc" },
        ),
      ),
    );
    await bus.publish(
      messageOf(
        eventOf(
          { case: "refund", value: { refundId: "ref_1", paymentId: "pi_1", status: RefundStatus.SUCCEEDED, amount: php(100_00), createdAt: at(new Date(created.getTime() + 1000)) } },
          { resourceId: "ref_1", projectId: "prj_grpc" },
        ),
      ),
    );
    await bus.publish(messageOf(eventOf({ case: "customer", value: { customerId: "cus_1" } }, { resourceId: "cus_1", projectId: "prj_grpc" })));
    // Projection lags publishing: wait until both records can be read.
    await vi.waitFor(async () => expect((await client.listPaymentRecords({}, caller("prj_grpc"))).records).toHaveLength(2));
  });

  afterAll(async () => {
    await server.close();
    await bus.close();
  });

  it("lists the caller's records, newest first, null fields absent", async () => {
    const { records, nextCursor } = await client.listPaymentRecords({}, caller("prj_grpc"));
    expect(nextCursor).toBe("");
    expect(records.map((record) => ({ ...record, createdAt: timestampDate(record.createdAt!) }))).toEqual([
      expect.objectContaining({
        type: "refund",
        id: "ref_1",
        projectId: "prj_grpc",
        environment: "test",
        relatedResourceId: "pi_1",
        amountMinor: "-10000",
        currency: "PHP",
        status: "succeeded",
        createdAt: new Date(created.getTime() + 1000),
      }),
      expect.objectContaining({ type: "payment_intent", id: "pi_1", referenceId: "order-1", status: "requires_action", createdAt: created }),
    ]);
    // A refund has no reference: null in the record, unset (not "") on the wire.
    expect(isFieldSet(records[0]!, PaymentRecordSchema.field.referenceId)).toBe(false);
  });

  it("pages with a cursor and filters", async () => {
    const first = await client.listPaymentRecords({ limit: 1 }, caller("prj_grpc"));
    expect(first.records.map((record) => record.id)).toEqual(["ref_1"]);
    const second = await client.listPaymentRecords({ limit: 1, cursor: first.nextCursor }, caller("prj_grpc"));
    expect(second.records.map((record) => record.id)).toEqual(["pi_1"]);
    expect(second.nextCursor).toBe("");

    const filtered = await client.listPaymentRecords(
      { type: "payment_intent", createdAfter: timestampFromDate(created), createdBefore: timestampFromDate(new Date(created.getTime() + 1)) },
      caller("prj_grpc"),
    );
    expect(filtered.records.map((record) => record.id)).toEqual(["pi_1"]);
  });

  it("shows another project nothing", async () => {
    expect((await client.listPaymentRecords({}, caller("prj_other"))).records).toEqual([]);
  });

  it("answers INVALID_ARGUMENT with VALIDATION_FAILED naming cursor for a tampered cursor", async () => {
    const { nextCursor } = await client.listPaymentRecords({ limit: 1 }, caller("prj_grpc"));
    const tampered = `${nextCursor.slice(0, -1)}${nextCursor.endsWith("A") ? "B" : "A"}`;
    const thrown = await client.listPaymentRecords({ limit: 1, cursor: tampered }, caller("prj_grpc")).catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    const error = fromConnectError(thrown);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details?.[0]).toMatch(/^cursor: /);
  });

  it("sums the caller's totals of a Philippine day range, net and text sums included", async () => {
    const { periods, total } = await client.getPaymentsSummary({ from: "2026-04-01", to: "2026-04-02", groupBy: ["provider_account"] }, caller("prj_grpc"));
    // The refund counts on its Philippine day; the intent awaiting payment counts nowhere.
    expect(periods.map((period) => [period.start, period.end, period.providerAccountId, period.totals?.refundedMinor])).toEqual([
      ["2026-04-01", "2026-04-01", "", "10000"],
      ["2026-04-02", "2026-04-02", "", "0"],
    ]);
    expect(total).toMatchObject({ paidCount: 0n, refundedCount: 1n, refundedMinor: "10000", feeMinor: "0", netMinor: "-10000" });
    expect((await client.getPaymentsSummary({ from: "2026-04-01", to: "2026-04-01" }, caller("prj_none"))).total?.refundedCount).toBe(0n);
  });

  it("answers INVALID_ARGUMENT with VALIDATION_FAILED naming granularity for an unknown one", async () => {
    const thrown = await client.getPaymentsSummary({ from: "2026-04-01", to: "2026-04-01", granularity: "hour" }, caller("prj_grpc")).catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    expect(fromConnectError(thrown).details?.[0]).toMatch(/^granularity: /);
  });

  it("rebuilds a project's totals from its records", async () => {
    expect(await client.rebuildPaymentTotals({ projectId: "prj_grpc" })).toMatchObject({ recordsRead: 2n, totalsWritten: 2n });
    expect((await client.getPaymentsSummary({ from: "2026-04-01", to: "2026-04-01" }, caller("prj_grpc"))).total?.refundedMinor).toBe("10000");
  });

  it("streams the export as batches of records, the listing's order", async () => {
    const messages = [];
    for await (const message of client.exportPaymentRecords({}, caller("prj_grpc"))) messages.push(message);
    expect(messages.flatMap((message) => message.records.map((record) => record.id))).toEqual(["ref_1", "pi_1"]);
    const refunds = [];
    for await (const message of client.exportPaymentRecords({ amountMaxMinor: -1n }, caller("prj_grpc"))) refunds.push(...message.records);
    expect(refunds.map((record) => record.id)).toEqual(["ref_1"]);
  });

  it("refuses a bad export with INVALID_ARGUMENT and VALIDATION_FAILED naming the field", async () => {
    const thrown = await (async () => {
      for await (const message of client.exportPaymentRecords({ paymentMethod: "cash" }, caller("prj_grpc"))) void message;
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    expect(fromConnectError(thrown).details?.[0]).toMatch(/^paymentMethod: /);
  });

  it("refuses a call without caller context", async () => {
    const thrown = await client.listPaymentRecords({}).catch((error: unknown) => ConnectError.from(error));
    expect(thrown).toMatchObject({ code: Code.Unauthenticated });
  });
});

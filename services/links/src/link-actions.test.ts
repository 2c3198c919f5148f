import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinksService, PaymentLinkStatus, SimulatedOutcome } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { startLinksServer } from "./server.js";
import { readLinksConfig } from "./config.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const newKey = () => `link-action-key-${String(++keys).padStart(6, "0")}`;
const as = (idempotencyKey = newKey()) => ({
  headers: callerHeaders({ projectId: "prj_actions", environment: "test", correlationId: "link-actions", idempotencyKey }),
});
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => Code[ConnectError.from(error).code],
  );

/** Link actions repeated with their Idempotency-Key (the gateway's reconciler) answer their first outcome. */
describe("payment link actions over gRPC", () => {
  let server: RunningServer;
  let links: Client<typeof LinksService>;

  beforeAll(async () => {
    server = await startLinksServer({ store: createTestStore(), config: readLinksConfig({}), logger: createLogger("test", "silent") });
    links = createClient(LinksService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(() => server.close());

  const newLink = async () =>
    (await links.createPaymentLink({ referenceId: `link-${newKey()}`, amount: { amountMinor: 500_00n, currency: "PHP" }, description: "d" }, as()))
      .paymentLink!;

  it("archive: a retry after the link was reactivated answers the archived link, and changes nothing", async () => {
    const { paymentLinkId } = await newLink();
    const key = newKey();
    const archived = await links.setPaymentLinkArchived({ paymentLinkId, archive: true }, as(key));
    expect(archived.paymentLink?.status).toBe(PaymentLinkStatus.ARCHIVED);
    await links.setPaymentLinkArchived({ paymentLinkId, archive: false }, as());
    expect(await links.setPaymentLinkArchived({ paymentLinkId, archive: true }, as(key))).toEqual(archived);
    expect((await links.getPaymentLink({ paymentLinkId }, as())).paymentLink?.status).toBe(PaymentLinkStatus.ACTIVE);
  });

  it("pay: the same key answers the paid link again; another key → INVALID_STATE_TRANSITION", async () => {
    const { paymentLinkId } = await newLink();
    const key = newKey();
    const paid = await links.simulatePaymentLinkPayment({ paymentLinkId, outcome: SimulatedOutcome.SUCCEED }, as(key));
    expect(paid.paymentLink?.status).toBe(PaymentLinkStatus.PAID);
    expect(await links.simulatePaymentLinkPayment({ paymentLinkId, outcome: SimulatedOutcome.SUCCEED }, as(key))).toEqual(paid);
    expect(await codeOf(links.simulatePaymentLinkPayment({ paymentLinkId, outcome: SimulatedOutcome.SUCCEED }, as()))).toBe("FailedPrecondition");
  });
});

import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinksService, PaymentLinkStatus } from "@bayad/proto";
import { callerHeaders, createLogger, type CallerContext, type RunningServer } from "@bayad/kit";
import { startLinksServer } from "./server.js";
import { readLinksConfig } from "./config.js";
import { createTestStore } from "@bayad/store/testing";

const caller = (projectId: string, idempotencyKey?: string): CallerContext => ({
  projectId,
  environment: "test",
  correlationId: "links-grpc-test",
  ...(idempotencyKey ? { idempotencyKey } : {}),
});

/** The service as the gateway reaches it: gRPC over HTTP/2, caller context in the metadata. */
describe("links service over gRPC (Connect client, HTTP/2)", () => {
  let server: RunningServer;
  let client: Client<typeof LinksService>;

  beforeAll(async () => {
    server = await startLinksServer({ store: createTestStore(), config: readLinksConfig({}), logger: createLogger("test", "silent") });
    client = createClient(LinksService, createGrpcTransport({ baseUrl: server.url }));
  });

  afterAll(async () => {
    await server.close();
  });

  it("creates a payment link and reads it back", async () => {
    const created = await client.createPaymentLink(
      { referenceId: "grpc-1", amount: { amountMinor: 1200_00n, currency: "PHP" }, description: "Catering deposit", remarks: "Due Friday" },
      { headers: callerHeaders(caller("prj_grpc", "grpc-key-0000000001")) },
    );
    const link = created.paymentLink!;
    expect(link.paymentLinkId).toMatch(/^link_[A-Za-z0-9]{24}$/);
    expect(link).toMatchObject({ status: PaymentLinkStatus.ACTIVE, active: true, archived: false, remarks: "Due Friday" });
    expect(link.metadata).toEqual({ service_reference_id: "grpc-1" });

    const read = await client.getPaymentLink({ paymentLinkId: link.paymentLinkId }, { headers: callerHeaders(caller("prj_grpc")) });
    expect(read.paymentLink).toEqual(link);
  });

  it("answers NOT_FOUND for another project's link", async () => {
    const created = await client.createPaymentLink(
      { referenceId: "grpc-2", amount: { amountMinor: 500_00n, currency: "PHP" }, description: "Deposit" },
      { headers: callerHeaders(caller("prj_owner", "grpc-key-0000000002")) },
    );
    const error = await client
      .getPaymentLink({ paymentLinkId: created.paymentLink!.paymentLinkId }, { headers: callerHeaders(caller("prj_other")) })
      .catch((thrown: unknown) => ConnectError.from(thrown));
    expect(error).toMatchObject({ code: Code.NotFound });
  });

  it("refuses a create without an Idempotency-Key", async () => {
    const error = await client
      .createPaymentLink({ referenceId: "grpc-3", amount: { amountMinor: 1n, currency: "PHP" }, description: "x" }, { headers: callerHeaders(caller("prj_grpc")) })
      .catch((thrown: unknown) => ConnectError.from(thrown));
    expect(error).toMatchObject({ code: Code.InvalidArgument });
  });
});

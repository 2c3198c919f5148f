import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus } from "@bayad/proto";
import { healthByService } from "./health-by-service.js";

const { SERVING, NOT_SERVING } = HealthCheckResponse_ServingStatus;

/** A service's own health, answering `status` about itself and NOT_FOUND about any other. */
const healthOf = (typeName: string, status: HealthCheckResponse_ServingStatus) => ({
  typeName,
  transport: createRouterTransport((router) =>
    router.service(Health, {
      check: (request) => {
        if (request.service !== "" && request.service !== typeName) throw new ConnectError("unknown", Code.NotFound);
        return { status };
      },
    }),
  ),
});

describe("healthByService", () => {
  const client = createClient(Health, healthByService([healthOf("a.A", SERVING), healthOf("b.B", NOT_SERVING)]));

  it("answers a check that names a service with that service's own health", async () => {
    expect((await client.check({ service: "a.A" })).status).toBe(SERVING);
    expect((await client.check({ service: "b.B" })).status).toBe(NOT_SERVING);
  });

  it("answers a check that names none SERVING only while every service is", async () => {
    expect((await client.check({ service: "" })).status).toBe(NOT_SERVING);
    const allServing = createClient(Health, healthByService([healthOf("a.A", SERVING), healthOf("b.B", SERVING)]));
    expect((await allServing.check({ service: "" })).status).toBe(SERVING);
  });

  it("answers NOT_FOUND for a service it does not carry", async () => {
    await expect(client.check({ service: "c.C" })).rejects.toMatchObject({ code: Code.NotFound });
  });
});

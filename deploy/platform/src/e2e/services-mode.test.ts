import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { deleteJetStreamNamespace } from "@bayad/events/testing";
import { startWebhookReceiver } from "@bayad/webhooks-service/testing";
import { launchServicesMode, type ServicesMode } from "../services-mode/services-launcher.js";
import { eventually, newIdempotencyKey, prerequisiteMet, unique } from "../test-support/harness.js";

/**
 * Services mode: every service and the gateway as separate processes, configured only by
 * environment variables, events over a real NATS JetStream, embedded stores.
 */

const natsUrl = process.env.NATS_URL;
const natsReady = prerequisiteMet("the services-mode tests", natsUrl ? undefined : "NATS_URL is not set (e.g. nats://127.0.0.1:4222)");

describe.skipIf(!natsReady)("services mode (separate processes, needs NATS_URL)", () => {
  const namespace = unique("svc").replace(/-/g, "");
  const logs: string[] = [];
  let mode: ServicesMode;

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${mode.gatewayUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${mode.testApiKey}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(method === "GET" ? {} : { "Idempotency-Key": newIdempotencyKey() }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

  const newCheckout = () =>
    call("POST", "/api/v1/payments/checkouts", {
      referenceId: unique("svc"),
      amount: { amountMinor: 100_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/ok",
      cancelUrl: "https://shop.example.ph/no",
    });

  beforeAll(async () => {
    // PORT 0: the launcher finds the gateway a free port.
    mode = await launchServicesMode({
      // The load test's four clients write faster than one credential's default limit allows; the
      // webhooks test's receiver listens on loopback. PUBLIC_URL unset: the launcher hands the
      // webhooks service the gateway's URL.
      env: {
        ...process.env, NATS_URL: natsUrl, EVENTS_NAMESPACE: namespace, PORT: "0", LOG_LEVEL: "info", MONGODB_URI: "", PUBLIC_URL: "",
        RATE_LIMIT_CREDENTIAL_WRITES: "100000", RATE_LIMIT_PROJECT_WRITES: "100000", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      },
      output: (name, line) => logs.push(`[${name}] ${line}`),
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.filter((line) => !line.includes('"level":30')).join("\n")}`);
    });
  }, 90_000);

  // A failure in one process shows in another (a refused connection, a 5xx): print what each
  // process said, its warnings and errors and the last lines, and which processes have exited.
  beforeEach(() => {
    onTestFailed(() => {
      const exited = [...mode.processes].filter(([, child]) => child.exitCode !== null || child.signalCode !== null);
      console.error(
        [
          `processes exited: ${exited.map(([name, child]) => `${name} (${child.exitCode ?? child.signalCode})`).join(", ") || "none"}`,
          ...logs.filter((line) => !line.includes('"level":30')).slice(-40),
          "last lines:",
          ...logs.slice(-20),
        ].join("\n"),
      );
    });
  });

  afterAll(async () => {
    await mode?.stop();
    await deleteJetStreamNamespace({ url: natsUrl!, namespace });
  }, 60_000);

  it("creates and reads through the gateway, every hop a separate process", async () => {
    const created = await newCheckout();
    expect(created.status).toBe(201);
    const read = await call("GET", `/api/v1/payments/checkouts/${created.body.data.checkoutId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ checkoutId: created.body.data.checkoutId, status: "pending" });
    // The records service, another process, learnt of it over NATS.
    const record = await eventually(async () => {
      const page = await call("GET", "/api/v1/payments/records?type=checkout");
      return page.status === 200 ? page.body.data.records.find((r: { id: string }) => r.id === created.body.data.checkoutId) : undefined;
    });
    expect(record).toMatchObject({ type: "checkout", amountMinor: "10000", referenceId: created.body.data.referenceId });
  }, 30_000);

  it("delivers a paid checkout from the payments process, over NATS, through the webhooks process to a receiver", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endpoint = await call("POST", "/api/v1/webhook-endpoints", { url: receiver.url, enabledEvents: ["checkout.paid"] });
      expect(endpoint.status).toBe(201);
      const created = await newCheckout();
      const checkoutId = created.body.data.checkoutId as string;
      expect((await call("POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`)).status).toBe(200);
      const delivery = await eventually(async () => receiver.received.find((received) => received.body.includes(checkoutId)), 20_000);
      const event = JSON.parse(delivery.body) as { id: string; type: string; data: Record<string, unknown> };
      expect(event.type).toBe("checkout.paid");
      expect(delivery.headers["webhook-id"]).toBe(event.id);
      // The checkout as the gateway answers it, its hosted page under the gateway's URL.
      const read = await call("GET", `/api/v1/payments/checkouts/${checkoutId}`);
      expect(event.data).toEqual(read.body.data);
      expect(String(event.data.checkoutUrl)).toMatch(new RegExp(`^${mode.gatewayUrl}/`));
      const attempts = await call("GET", `/api/v1/webhook-endpoints/${endpoint.body.data.webhookEndpointId}/deliveries?eventId=${event.id}`);
      expect(attempts.body.data.deliveries).toEqual([expect.objectContaining({ eventId: event.id, attempt: 1, status: "succeeded", responseStatusCode: 200 })]);
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it("has no development token issuer unless DEV_TOKEN_ISSUER switches it on", async () => {
    const response = await fetch(`${mode.gatewayUrl}/admin/v1/service-tokens`, {
      method: "POST",
      headers: { Authorization: `Bearer ${mode.adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: mode.projectId, environment: "test", subject: "svc", scopes: ["otp:generate"], ttlSeconds: 600 }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("ROUTE_NOT_FOUND");
    expect((await fetch(`${mode.gatewayUrl}/.well-known/jwks.json`)).status).toBe(404);
  });

  it("every process serves Prometheus metrics: requests, rpc latencies, outbox and consumer lag", async () => {
    const text = async (name: "gateway" | "payments" | "records") => (await fetch(mode.metricsUrls.get(name)!)).text();
    expect(await text("gateway")).toMatch(/bayad_http_request_duration_seconds_count\{operation="createCheckout",method="POST",status="201"\} [1-9]\d*/);
    const payments = await text("payments");
    expect(payments).toMatch(/bayad_rpc_request_duration_seconds_count\{service="PaymentsService",procedure="CreateCheckout",code="ok"\} [1-9]\d*/);
    expect(payments).toMatch(/bayad_outbox_pending_events\{service="payments"\} \d+/);
    expect(await text("records")).toMatch(/bayad_consumer_pending_messages\{consumer="records"\} \d+/);
  });

  it("logs carry the caller's correlation id through the gRPC hop", async () => {
    const correlationId = unique("corr");
    const response = await fetch(`${mode.gatewayUrl}/api/v1/payments/checkouts/chk_doesnotexist`, {
      headers: { Authorization: `Bearer ${mode.testApiKey}`, "X-Correlation-Id": correlationId },
    });
    expect(response.status).toBe(404);
    const line = await eventually(async () => logs.find((entry) => entry.startsWith("[payments]") && entry.includes(correlationId)));
    expect(JSON.parse(line.slice(line.indexOf("{")))).toMatchObject({ correlationId, procedure: "GetCheckout" });
  });

  it("SIGTERM to a service under load loses no accepted request", async () => {
    const accepted: string[] = [];
    let terminated = false;
    let refusedAfterStop = 0;
    // Four clients keep creating checkouts; a while after the first answers, payments is told
    // to stop. Every checkout the gateway answered 201 for must have been written and its event
    // published (the outbox is flushed on the way down), so the records feed shows it.
    const client = async () => {
      while (refusedAfterStop < 20) {
        const response = await newCheckout().catch(() => ({ status: 0, body: {} as any }));
        if (response.status === 201) accepted.push(response.body.data.checkoutId);
        else if (terminated) refusedAfterStop += 1;
        else throw new Error(`unexpected ${response.status} before the stop: ${JSON.stringify(response.body)}`);
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await eventually(async () => (accepted.length >= 40 ? true : undefined), 30_000);
    mode.processes.get("payments")!.kill("SIGTERM");
    terminated = true;
    await Promise.all(clients);
    expect(await mode.exited("payments")).toBe(0);

    expect(accepted.length).toBeGreaterThanOrEqual(40);
    const feed = await eventually(async () => {
      const ids = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await call("GET", `/api/v1/payments/records?type=checkout&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        for (const record of page.body.data.records as Array<{ id: string }>) ids.add(record.id);
        cursor = page.body.data.nextCursor;
      } while (cursor);
      return accepted.every((id) => ids.has(id)) ? ids : undefined;
    }, 30_000);
    expect(accepted.filter((id) => !feed.has(id))).toEqual([]);
  }, 120_000);
});

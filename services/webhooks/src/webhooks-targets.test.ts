import { afterEach, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus } from "@bayad/proto";
import { fromConnectError, type Environment } from "@bayad/kit";
import { as, newProject, quickEnv, startHarness, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver, type WebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { messageOf, paidCheckoutEvent } from "./test-support/events.js";
import type { Resolver } from "./dispatch/target-policy.js";

const strictEnv = { ...quickEnv, WEBHOOKS_ALLOW_PRIVATE_TARGETS: "false" };

/**
 * Bayad posts to URLs its users choose, from inside its network: targets it must not reach are
 * refused when the endpoint is registered (written as an address, or localhost), and again when
 * each delivery connects (every address the host resolves to then).
 */
describe("webhook targets", () => {
  let harness: Harness | undefined;
  let receiver: WebhookReceiver | undefined;

  afterEach(async () => {
    await receiver?.close();
    await harness?.close();
    receiver = undefined;
    harness = undefined;
  });

  const create = (h: Harness, project: string, url: string, environment: Environment) =>
    h.client.createWebhookEndpoint({ url, enabledEvents: ["*"] }, as(project, environment)).then(
      (created) => created.webhookEndpoint!,
      (thrown: unknown) => fromConnectError(thrown),
    );

  it("refuses at registration what a live endpoint, or any endpoint without the allowance, may not reach: 422 naming url, nothing written", async () => {
    harness = await startHarness(strictEnv);
    const project = newProject();
    const refused: Array<[string, Environment, RegExp]> = [
      ["http://hooks.example.ph/bayad", "live", /^url: must use https for a live endpoint$/],
      ["https://127.0.0.1:8443/hooks", "live", /^url: 127\.0\.0\.1 is a loopback address/],
      ["https://169.254.169.254/latest/meta-data", "live", /^url: 169\.254\.169\.254 is a cloud metadata address/],
      ["https://10.0.0.7/hooks", "live", /^url: 10\.0\.0\.7 is a private address/],
      ["https://[::1]/hooks", "live", /^url: ::1 is a loopback address/],
      ["https://[::ffff:7f00:1]/hooks", "live", /^url: ::ffff:7f00:1 is a loopback address/],
      ["https://localhost/hooks", "live", /^url: localhost is this machine/],
      ["https://api.localhost/hooks", "live", /^url: api\.localhost is this machine/],
      // Written in a form the URL parser turns into 127.0.0.1.
      ["http://2130706433:8080/hooks", "test", /^url: 127\.0\.0\.1 is a loopback address/],
      ["http://127.0.0.1:8080/hooks", "test", /^url: 127\.0\.0\.1 is a loopback address/],
      ["http://localhost:3000/hooks", "test", /^url: localhost is this machine/],
      ["http://192.168.1.20/hooks", "test", /^url: 192\.168\.1\.20 is a private address/],
      ["http://100.64.0.1/hooks", "test", /^url: 100\.64\.0\.1 is a carrier-grade NAT address/],
      ["http://[64:ff9b::a00:7]/hooks", "test", /^url: 64:ff9b::a00:7 is a private address \(NAT64 for 10\.0\.0\.7\)/],
    ];
    for (const [url, environment, detail] of refused) {
      const error = await create(harness, project, url, environment);
      expect(error, url).toMatchObject({ code: "WEBHOOK_URL_NOT_ALLOWED", details: [expect.stringMatching(detail)] });
    }
    for (const environment of ["test", "live"] as const) {
      expect((await harness.client.listWebhookEndpoints({}, as(project, environment, null))).webhookEndpoints).toEqual([]);
    }
    // A public https URL is fine in both modes, and plain http in test mode.
    expect(await create(harness, project, "https://hooks.example.ph/bayad", "live")).toMatchObject({ url: "https://hooks.example.ph/bayad" });
    const endpoint = await create(harness, project, "http://hooks.example.ph/bayad", "test");
    expect(endpoint).toMatchObject({ url: "http://hooks.example.ph/bayad" });
    // An update is checked the same way.
    const moved = await harness.client
      .updateWebhookEndpoint({ webhookEndpointId: (endpoint as { webhookEndpointId: string }).webhookEndpointId, url: "http://10.1.1.1/x" }, as(project))
      .catch((thrown: unknown) => fromConnectError(thrown));
    expect(moved).toMatchObject({ code: "WEBHOOK_URL_NOT_ALLOWED", details: ["url: 10.1.1.1 is a private address, which webhooks may not reach"] });
  });

  it("lets test-mode endpoints reach loopback and private addresses with WEBHOOKS_ALLOW_PRIVATE_TARGETS, never live ones or metadata", async () => {
    harness = await startHarness(quickEnv);
    const project = newProject();
    expect(await create(harness, project, "http://127.0.0.1:8080/hooks", "test")).toMatchObject({ url: "http://127.0.0.1:8080/hooks" });
    expect(await create(harness, project, "http://localhost:3000/hooks", "test")).toMatchObject({ url: "http://localhost:3000/hooks" });
    expect(await create(harness, project, "http://192.168.1.20/hooks", "test")).toMatchObject({ url: "http://192.168.1.20/hooks" });
    expect(await create(harness, project, "http://[fd12:3456::1]/hooks", "test")).toMatchObject({ url: "http://[fd12:3456::1]/hooks" });
    expect(await create(harness, project, "https://127.0.0.1:8443/hooks", "live")).toMatchObject({ code: "WEBHOOK_URL_NOT_ALLOWED" });
    expect(await create(harness, project, "https://localhost/hooks", "live")).toMatchObject({ code: "WEBHOOK_URL_NOT_ALLOWED" });
    expect(await create(harness, project, "http://169.254.169.254/latest/meta-data", "test")).toMatchObject({
      code: "WEBHOOK_URL_NOT_ALLOWED",
      details: [expect.stringMatching(/cloud metadata/)],
    });
  });

  it("refuses link-local, CGNAT and metadata targets even where private targets are allowed, also inside NAT64, 6to4 and Teredo addresses", async () => {
    const resolveHost: Resolver = async (hostname) => {
      if (hostname === "metadata.google.internal") return [{ address: "169.254.169.254", family: 4 }];
      if (hostname === "dual.bayad.example") return [{ address: "203.0.113.10", family: 4 }, { address: "64:ff9b::6464:64c8", family: 6 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    };
    harness = await startHarness(quickEnv, { resolveHost });
    const project = newProject();
    const refused: Array<[string, string]> = [
      ["http://169.254.170.2/v2/credentials", "169.254.170.2 is a cloud metadata address"],
      ["http://100.100.100.200/latest/meta-data", "100.100.100.200 is a cloud metadata address"],
      ["http://192.0.0.192/opc/v1/instance", "192.0.0.192 is a cloud metadata address"],
      ["http://[fd00:ec2::254]/latest/meta-data", "fd00:ec2::254 is a cloud metadata address"],
      ["http://169.254.10.1/hooks", "169.254.10.1 is a link-local address"],
      ["http://[fe80::1]/hooks", "fe80::1 is a link-local address"],
      ["http://100.64.0.1/hooks", "100.64.0.1 is a carrier-grade NAT address"],
      ["http://[64:ff9b::a9fe:a9fe]/hooks", "64:ff9b::a9fe:a9fe is a cloud metadata address (NAT64 for 169.254.169.254)"],
      ["http://[64:ff9b:1::a9fe:aa02]/hooks", "64:ff9b:1::a9fe:aa02 is a cloud metadata address (NAT64 for 169.254.170.2)"],
      ["http://[2002:a9fe:a9fe::]/hooks", "2002:a9fe:a9fe:: is a cloud metadata address (6to4 for 169.254.169.254)"],
      ["http://[2001:0:4136:e378:8000:63bf:5601:5601]/hooks", "2001:0:4136:e378:8000:63bf:5601:5601 is a cloud metadata address (Teredo client 169.254.169.254)"],
      ["http://[::ffff:a9fe:a9fe]/hooks", "::ffff:a9fe:a9fe is a cloud metadata address (IPv4-mapped 169.254.169.254)"],
      ["http://metadata.google.internal/computeMetadata/v1/", "169.254.169.254 is a cloud metadata address (an address of metadata.google.internal)"],
      ["http://dual.bayad.example/hooks", "64:ff9b::6464:64c8 is a cloud metadata address (NAT64 for 100.100.100.200) (an address of dual.bayad.example)"],
    ];
    for (const [url, reason] of refused) {
      expect(await create(harness, project, url, "test"), url).toMatchObject({
        code: "WEBHOOK_URL_NOT_ALLOWED",
        details: [`url: ${reason}, which webhooks may not reach`],
      });
    }
    expect((await harness.client.listWebhookEndpoints({}, as(project, "test", null))).webhookEndpoints).toEqual([]);
    // A name that does not resolve yet is judged at each delivery instead.
    expect(await create(harness, project, "http://later.bayad.example/hooks", "test")).toMatchObject({ url: "http://later.bayad.example/hooks" });
  });

  it("refuses at delivery an address registered while it was allowed: the attempt fails and nothing is sent", async () => {
    receiver = await startWebhookReceiver();
    harness = await startHarness(quickEnv);
    const project = newProject();
    const endpoint = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["*"] }, as(project));
    const endpointId = endpoint.webhookEndpoint!.webhookEndpointId;
    // The operator turns the allowance off.
    await harness.server.close();
    await harness.restart(strictEnv);

    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    const attempts = await eventually(async () => {
      const listed = (await harness!.client.listWebhookDeliveries({ webhookEndpointId: endpointId, eventId: event.eventId }, as(project, "test", null))).deliveries;
      return listed.length === 3 && listed.every((attempt) => attempt.status === WebhookDeliveryStatus.FAILED) ? listed : undefined;
    });
    for (const attempt of attempts) {
      expect(attempt.error).toBe("refused: 127.0.0.1 is a loopback address");
      expect(attempt.responseStatusCode).toBeUndefined();
    }
    expect(receiver.received).toEqual([]);
  });

  it("checks every address a host name resolves to when the delivery connects", async () => {
    receiver = await startWebhookReceiver();
    const port = new URL(receiver.url).port;
    // A host name public when registered that then resolves to loopback (DNS rebinding): DNS can
    // say anything, whatever the name looks like, and say something else the next time.
    const dns: Record<string, string> = { "hooks.bayad.example": "203.0.113.10", "metadata.bayad.example": "203.0.113.11" };
    const resolveHost: Resolver = async (hostname) => {
      const address = dns[hostname];
      if (address !== undefined) return [{ address, family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    };
    // One attempt per event: a retry of the refused one must not reach the receiver once allowed.
    harness = await startHarness({ ...strictEnv, WEBHOOK_RETRY_SCHEDULE: "0s" }, { resolveHost });
    const project = newProject();
    const url = `http://hooks.bayad.example:${port}/hooks`;
    const created = await harness.client.createWebhookEndpoint({ url, enabledEvents: ["*"] }, as(project));
    const endpointId = created.webhookEndpoint!.webhookEndpointId;
    const missing = await harness.client.createWebhookEndpoint({ url: `http://nowhere.bayad.example:${port}/hooks`, enabledEvents: ["*"] }, as(project));
    dns["hooks.bayad.example"] = "127.0.0.1";

    const refused = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(refused));
    const [first] = await eventually(async () => {
      const listed = (await harness!.client.listWebhookDeliveries({ webhookEndpointId: endpointId, eventId: refused.eventId }, as(project, "test", null))).deliveries;
      return listed[0]?.status === WebhookDeliveryStatus.FAILED ? listed : undefined;
    });
    expect(first).toMatchObject({ attempt: 1 });
    expect(first!.nextAttemptAt).toBeUndefined();
    expect(first!.error).toBe("refused: 127.0.0.1 is a loopback address");
    const [unresolved] = await eventually(async () => {
      const listed = (await harness!.client.listWebhookDeliveries({ webhookEndpointId: missing.webhookEndpoint!.webhookEndpointId }, as(project, "test", null))).deliveries;
      return listed[0]?.status === WebhookDeliveryStatus.FAILED ? listed : undefined;
    });
    expect(unresolved!.error).toBe("ENOTFOUND");

    // Allowed for test-mode endpoints, the same name reaches the receiver at the address it resolved to.
    await harness.server.close();
    await harness.restart({ ...quickEnv, WEBHOOK_RETRY_SCHEDULE: "0s" });
    const allowed = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(allowed));
    await eventually(() => receiver!.deliveriesOf(allowed.eventId)[0]);
    expect(receiver.deliveriesOf(refused.eventId)).toEqual([]);

    // A name rebound to a metadata address is refused whatever the switch says.
    const other = await harness.client.createWebhookEndpoint({ url: `http://metadata.bayad.example:${port}/hooks`, enabledEvents: ["*"] }, as(project));
    dns["metadata.bayad.example"] = "169.254.170.2";
    const rebound = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(rebound));
    const [metadata] = await eventually(async () => {
      const listed = (await harness!.client.listWebhookDeliveries({ webhookEndpointId: other.webhookEndpoint!.webhookEndpointId, eventId: rebound.eventId }, as(project, "test", null))).deliveries;
      return listed[0]?.status === WebhookDeliveryStatus.FAILED ? listed : undefined;
    });
    expect(metadata!.error).toBe("refused: 169.254.170.2 is a cloud metadata address");
    expect(metadata!.responseStatusCode).toBeUndefined();
    expect(receiver.deliveriesOf(rebound.eventId).map((delivery) => delivery.headers.host)).toEqual([`hooks.bayad.example:${port}`]);
  });
});

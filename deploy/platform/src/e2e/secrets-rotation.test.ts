import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { randomBase62 } from "@bayad/kit";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startWebhookReceiver, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { eventually, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * Rotating the keys that seal what the platform stores (docs/operations/data-and-backups.md, "Rotating keys"): a new key is
 * added to each ring, `resealSecrets` moves every sealed value to it, and the platform then runs
 * on the new keys alone: the webhook endpoint's deliveries still verify with the secret it was
 * given, the provider account's key still opens, the API key still authenticates, the
 * development issuer still signs with the key it had, and billing's development outbox still
 * opens the invoice it holds.
 */

const oldSecretsKey = randomBase62(43);
const newSecretsKey = randomBase62(43);
const oldGatewaySecret = randomBase62(43);
const newGatewaySecret = randomBase62(43);
const adminApiKey = `adm_${randomBase62(32)}`;

interface SimulatedWebhook {
  attributes: { status: string };
}

/** Every sealed value in a store's documents, as its text: `v1.…` (no key id) or `v2.<key id>.…`. */
async function sealedKeyIdsIn(api: TestPlatform): Promise<string[]> {
  const ids: string[] = [];
  for (const store of Object.values(api.platform.stores)) {
    for (const name of await store.listCollections()) {
      const text = JSON.stringify(await store.collection({ name }).find({}));
      for (const [, version, keyId] of text.matchAll(/"(v1|v2)\.(?:([a-z0-9-]{1,16})\.)?[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*"/g)) {
        ids.push(version === "v1" ? "v1" : keyId!);
      }
    }
  }
  return ids;
}

describe("rotating SECRETS_KEYS and GATEWAY_SECRETS", () => {
  let simulator: PaymongoSimulator;
  let receiver: WebhookReceiver;
  let dataDir: string;
  let api: TestPlatform | undefined;

  const start = async (keys: Record<string, string>) => {
    await api?.close();
    api = await startTestPlatform(
      { ADMIN_API_KEY: adminApiKey, PAYMONGO_API_BASE: simulator.url, WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", ...keys },
      { dataDir },
    );
    return api;
  };
  const signingKid = async (platform: TestPlatform) =>
    ((await (await fetch(`${platform.platform.gatewayUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys[0]!.kid;

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
    receiver = await startWebhookReceiver();
    dataDir = mkdtempSync(join(tmpdir(), "bayad-rotation-"));
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
    await simulator?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("moves every sealed value to the new keys, after which the old keys can go", async () => {
    // 1. One key in each ring.
    let platform = await start({ SECRETS_KEYS: `k1:${oldSecretsKey}`, GATEWAY_SECRET: oldGatewaySecret });
    const project = await platform.newProject();
    const endpoint = await platform.request("POST", "/api/v1/webhook-endpoints", {
      body: { url: receiver.url, enabledEvents: ["*"] },
      credential: project.testKey,
    });
    expect(endpoint.status).toBe(201);
    const { webhookEndpointId, secret } = endpoint.body.data as { webhookEndpointId: string; secret: string };
    const accountPath = `/admin/v1/projects/${project.projectId}/provider-accounts/test`;
    const account = await platform.admin("PUT", accountPath, { provider: "paymongo", secretKey: `sk_test_${randomBase62(24)}`, paymentMethodTypes: ["qrph"] });
    expect(account.status).toBe(201);
    // A test-mode subscription: billing's development outbox holds its invoice (text and HTML), sealed.
    const credential = project.testKey;
    const plan = await platform.request("POST", "/api/v1/payments/plans", { body: { name: "Gold", amount: 123_450, interval: "monthly" }, credential });
    const customer = await platform.request("POST", "/api/v1/payments/customers", { body: { customerReference: "member-1", email: "juan@example.ph" }, credential });
    const subscription = await platform.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId: "membership-1", priceId: plan.body.data.planId },
      credential,
    });
    expect(subscription.status).toBe(201);
    const invoiceMessages = async (current: TestPlatform) =>
      ((await current.admin("GET", `/admin/v1/messages?projectId=${project.projectId}&kind=invoice`)).body.data as Array<{ subject: string }>).map((message) => message.subject);
    const [invoiceSubject] = await eventually(async () => ((await invoiceMessages(platform)).length > 0 ? invoiceMessages(platform) : undefined));
    const kid = await signingKid(platform);
    expect(new Set(await sealedKeyIdsIn(platform))).toEqual(new Set(["k1", "legacy"]));

    // 2. The new keys added (newest last), and everything resealed under them: twice, as an operator may.
    platform = await start({ SECRETS_KEYS: `k1:${oldSecretsKey},k2:${newSecretsKey}`, GATEWAY_SECRETS: `legacy:${oldGatewaySecret},g2:${newGatewaySecret}` });
    const resealed = await platform.admin("POST", "/admin/v1/secrets/reseal");
    expect(resealed.status).toBe(200);
    const byComponent = Object.fromEntries((resealed.body.data.components as Array<{ component: string }>).map(({ component, ...counts }) => [component, counts]));
    expect(byComponent).toMatchObject({
      gateway: { resealed: expect.any(Number), unreadable: 0 },
      payments: { resealed: 2, current: 0, unreadable: 0 },
      webhooks: { resealed: 1, current: 0, unreadable: 0 },
      otp: { unreadable: 0 },
      billing: { resealed: 2, current: 0, unreadable: 0 },
    });
    expect(byComponent.gateway!).toMatchObject({ resealed: expect.toSatisfy((count: number) => count >= 1) });
    const again = await platform.admin("POST", "/admin/v1/secrets/reseal");
    expect((again.body.data.components as Array<{ resealed: number; unreadable: number }>).every((counts) => counts.resealed === 0 && counts.unreadable === 0)).toBe(true);
    expect(new Set(await sealedKeyIdsIn(platform))).toEqual(new Set(["k2", "g2"]));

    // 3. The old keys removed.
    platform = await start({ SECRETS_KEYS: `k2:${newSecretsKey}`, GATEWAY_SECRETS: `g2:${newGatewaySecret}` });
    // The API key issued under the old gateway secret still authenticates.
    expect((await platform.request("GET", `/api/v1/webhook-endpoints/${webhookEndpointId}`, { credential: project.testKey })).status).toBe(200);
    // The development issuer's key opened: it was not replaced by a new one.
    expect(await signingKid(platform)).toBe(kid);
    expect((await platform.serviceToken(project.projectId, ["otp:read"])).split(".")).toHaveLength(3);
    // Billing's development outbox still opens the invoice it holds.
    expect(await invoiceMessages(platform)).toEqual([invoiceSubject]);

    // The endpoint's deliveries still verify with the secret it was given at creation.
    const test = await platform.request("POST", `/api/v1/webhook-endpoints/${webhookEndpointId}/test`, { credential: project.testKey });
    expect(test.status).toBe(202);
    const delivery = await eventually(async () => receiver.received.find((received) => String(received.headers["webhook-id"]) === test.body.data.event.id));
    const headers = {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    };
    expect(new Webhook(secret).verify(delivery.body, headers)).toMatchObject({ type: "webhook.test" });

    // The provider account's stored key still opens: replacing it disables the webhook it registered.
    const replaced = await platform.admin("PUT", accountPath, { provider: "paymongo", secretKey: `sk_test_${randomBase62(24)}`, paymentMethodTypes: ["qrph"] });
    expect(replaced.status).toBe(200);
    expect((simulator.find(account.body.data.webhook.webhookId) as SimulatedWebhook).attributes.status).toBe("disabled");
  });
});

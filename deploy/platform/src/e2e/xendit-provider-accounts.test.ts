import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * A project's Xendit account end to end over real HTTP: the admin API puts it (the key checked
 * with the Xendit simulator, XENDIT_API_BASE), answers the callback URL to configure in Xendit's
 * dashboard, and lists it; the gateway's callback route refuses a wrong token with the one 401,
 * and a callback the simulator delivers with the right token is read back and pays the checkout.
 */
describe("Xendit provider accounts and callbacks", () => {
  let sim: XenditSimulator;
  let api: TestPlatform;
  let project: { projectId: string; liveKey: string; testKey: string };
  const token = `cb_${randomBytes(16).toString("hex")}`;
  const secretKey = `xnd_development_${randomBytes(16).toString("hex")}`;

  beforeAll(async () => {
    sim = await startXenditSimulator({ callbackRetryDelaysMs: [100, 100] });
    api = await startTestPlatform({ XENDIT_API_BASE: sim.url, SECRETS_KEY: randomBytes(32).toString("hex") });
    project = await api.newProject("Xendit shop");
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  const accountsPath = () => `/admin/v1/projects/${project.projectId}/provider-accounts`;

  it("puts a Xendit test account, lists it with its callback URL, refuses a callback with a wrong token, and applies one the simulator delivers", async () => {
    const put = await api.admin("PUT", `${accountsPath()}/test`, { provider: "xendit", secretKey, paymentMethodTypes: ["gcash", "QRPH"], callbackToken: token });
    expect(put.status).toBe(201);
    const account = put.body.data;
    const callbackUrl = `${api.platform.gatewayUrl}/provider-webhooks/xendit/${account.providerAccountId as string}`;
    expect(account).toMatchObject({
      provider: "xendit",
      environment: "test",
      secretKeyLast4: secretKey.slice(-4),
      paymentMethodTypes: ["GCASH", "QRPH"],
      status: "active",
      callback: { url: callbackUrl, tokenLast4: token.slice(-4) },
    });
    expect(account.webhook).toBeUndefined();
    expect(JSON.stringify(put.body)).not.toContain(token);
    expect(JSON.stringify(put.body)).not.toContain(secretKey);

    const listed = await api.admin("GET", accountsPath());
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([account]);
    // The environment's only account answers without ?provider=.
    expect((await api.admin("GET", `${accountsPath()}/test`)).body.data).toEqual(account);
    expectError(await api.admin("PUT", `${accountsPath()}/test`, { provider: "xendit", secretKey, paymentMethodTypes: [] }), 400, "VALIDATION_FAILED");

    // A delivery with a wrong token: the one 401, whatever was wrong.
    const body = JSON.stringify({ event: "payment_session.completed", business_id: "b", created: new Date().toISOString(), data: { payment_session_id: "ps-1", reference_id: "chk_1" } });
    const wrong = await fetch(callbackUrl, { method: "POST", headers: { "content-type": "application/json", "x-callback-token": `${token}x` }, body });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("INVALID_CREDENTIALS");
    const none = await fetch(callbackUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(none.status).toBe(401);

    // The merchant sets the URL and token in Xendit's dashboard (here: the simulator's controls).
    sim.setCallbacks({ urls: [callbackUrl], verificationToken: token }, secretKey);
    const created = await api.request("POST", "/api/v1/payments/checkouts", {
      credential: project.testKey,
      body: { referenceId: unique("xendit-order"), amount: { amountMinor: 150_00, currency: "PHP" }, successUrl: "https://shop.example.ph/paid", cancelUrl: "https://shop.example.ph/cart" },
    });
    expect(created.status).toBe(201);
    const checkoutId = created.body.data.checkoutId as string;
    const session = sim.objects("session").find((candidate) => candidate["reference_id"] === checkoutId)!;
    expect(session).toBeDefined();
    sim.paySession(session["payment_session_id"] as string, "GCASH");
    const status = async () => (await api.request("GET", `/api/v1/payments/checkouts/${checkoutId}`, { credential: project.testKey })).body.data.status as string;
    expect(await eventually(async () => ((await status()) === "paid" ? "paid" : undefined), 15_000)).toBe("paid");
    expect(sim.deliveries().some((attempt) => attempt.url === callbackUrl && attempt.status === 200)).toBe(true);
  }, 60_000);
});

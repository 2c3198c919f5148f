import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InThreadPlatform } from "@bayad/platform";
import { Bayad, BayadError, type RetryNotice } from "./index.js";
import { startFaultyProxy, type Fault, type FaultyProxy } from "./test-support/faulty-proxy.js";
import { checkoutsWithReference, startTestPlatform, unique } from "./test-support/platform.js";

const checkoutBody = (amountMinor = 1500_00) => ({
  referenceId: unique("order"),
  amount: { amountMinor, currency: "PHP" as const },
  successUrl: "https://shop.example.ph/paid",
  cancelUrl: "https://shop.example.ph/cart",
});

/** Quick pauses, so that tests retry many times without waiting long; no test asserts a duration. */
const quick = { minDelayMs: 5, maxDelayMs: 50 };

/**
 * The SDK's retries against a gateway that fails on purpose: a proxy in front of the real
 * platform that answers 503, 429 or drops the connection, and the platform's own unsettled
 * answers (IDEMPOTENCY_KEY_IN_PROGRESS, PAYMENT_OUTCOME_UNKNOWN). Every retry of a mutation
 * must carry the key its first attempt carried, and exactly one resource must come of it.
 */
describe("retries", () => {
  let platform: InThreadPlatform;
  let proxy: FaultyProxy | undefined;
  /** The next call of this operation hangs until `release` is called (afterOutcome fault injection). */
  let hangNext: { operationId: string; released: Promise<void>; release: () => void } | undefined;

  beforeAll(async () => {
    platform = await startTestPlatform(
      // The silence scenario (amount 1504) keeps the provider quiet this long before it is reconciled.
      { SANDBOX_SILENCE_MS: "1500", IDEMPOTENCY_LEASE_MS: "60000" },
      {
        afterOutcome: async (operationId) => {
          const hang = hangNext;
          if (hang?.operationId !== operationId) return;
          hangNext = undefined;
          await hang.released;
        },
      },
    );
  });
  afterAll(() => platform?.close());
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  async function behind(faultFor: (n: number) => Fault, options: Partial<ConstructorParameters<typeof Bayad>[0]> = {}) {
    proxy = await startFaultyProxy(platform.gatewayUrl, faultFor);
    return new Bayad({ apiKey: platform.testApiKey, baseUrl: proxy.url, ...quick, ...options });
  }

  const firstFails = (n: number, fault: Fault) => (i: number): Fault => (i < n ? fault : { kind: "pass" });

  it.each<[string, Fault]>([
    ["503", { kind: "status", status: 503, code: "SERVICE_UNAVAILABLE" }],
    ["429 with Retry-After", { kind: "status", status: 429, code: "RATE_LIMITED", headers: { "Retry-After": "0" } }],
    ["a dropped connection", { kind: "drop" }],
  ])("retries a create after %s with the same Idempotency-Key, making exactly one checkout", async (_name, fault) => {
    const bayad = await behind(firstFails(2, fault));
    const body = checkoutBody();
    const checkout = await bayad.checkouts.create(body);

    expect(checkout.referenceId).toBe(body.referenceId);
    expect(proxy!.seen).toHaveLength(3);
    const keys = new Set(proxy!.seen.map((seen) => seen.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^.{16,255}$/);
    expect(proxy!.seen.at(-1)!.status).toBe(201);
    expect(await checkoutsWithReference(platform, body.referenceId)).toBe(1);
  });

  it("retries when the first attempt reached the gateway but its answer was lost: the retry replays it", async () => {
    // The first attempt passes to the gateway (the checkout is made); the proxy then drops its answer.
    let passedOnce = false;
    proxy = await startFaultyProxy(platform.gatewayUrl, () => ({ kind: "pass" }));
    const lossy = new Bayad({
      apiKey: platform.testApiKey,
      baseUrl: proxy.url,
      ...quick,
      fetch: async (request) => {
        const response = await fetch(request);
        if (!passedOnce) {
          passedOnce = true;
          await response.body?.cancel();
          throw new TypeError("fetch failed: the connection closed before the answer arrived");
        }
        return response;
      },
    });
    const body = checkoutBody();
    const checkout = await lossy.checkouts.create(body);
    expect(proxy.seen.map((seen) => seen.status)).toEqual([201, 201]);
    expect(new Set(proxy.seen.map((seen) => seen.idempotencyKey)).size).toBe(1);
    expect(checkout.referenceId).toBe(body.referenceId);
    expect(await checkoutsWithReference(platform, body.referenceId)).toBe(1);
  });

  it("honours Retry-After: the pause before the retry is the one the gateway asked for", async () => {
    const notices: RetryNotice[] = [];
    const bayad = await behind(firstFails(1, { kind: "status", status: 429, code: "RATE_LIMITED", headers: { "Retry-After": "1" } }), {
      onRetry: (notice) => notices.push(notice),
    });
    await bayad.capabilities.get();
    expect(notices).toEqual([expect.objectContaining({ attempt: 2, reason: "RATE_LIMITED", delayMs: 1000 })]);
  });

  it("gives up after maxRetries and throws the last answer as a BayadError", async () => {
    const bayad = await behind(() => ({ kind: "status", status: 503, code: "SERVICE_UNAVAILABLE" }), { maxRetries: 2 });
    const error = (await bayad.checkouts.create(checkoutBody()).catch((caught: unknown) => caught)) as BayadError;
    expect(error).toBeInstanceOf(BayadError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, correlationId: "proxy-fault" });
    expect(proxy!.seen).toHaveLength(3);
    expect(new Set(proxy!.seen.map((seen) => seen.idempotencyKey)).size).toBe(1);
  });

  it("throws NETWORK_ERROR, status 0, when no attempt got an answer", async () => {
    const bayad = await behind(() => ({ kind: "drop" }), { maxRetries: 1 });
    await expect(bayad.capabilities.get()).rejects.toMatchObject({ name: "BayadError", code: "NETWORK_ERROR", status: 0 });
    expect(proxy!.seen).toHaveLength(2);
  });

  it("never retries another 4xx", async () => {
    const bayad = await behind(() => ({ kind: "pass" }));
    await expect(bayad.checkouts.get("chk_missing")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND", status: 404 });
    await expect(bayad.checkouts.create({ ...checkoutBody(), successUrl: "not a url" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(proxy!.seen.map((seen) => seen.status)).toEqual([404, 400]);
  });

  it("retries IDEMPOTENCY_KEY_IN_PROGRESS until the first attempt settles, then gets its answer", async () => {
    // The first attempt hangs inside the gateway (after the service made the customer) past the
    // SDK's per-attempt timeout; its retries meet the held key until the first attempt finishes.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    hangNext = { operationId: "createCustomer", released, release };
    const notices: RetryNotice[] = [];
    const bayad = await behind(() => ({ kind: "pass" }), {
      timeoutMs: 300,
      maxRetries: 100,
      onRetry: (notice) => {
        notices.push(notice);
        if (notice.reason === "IDEMPOTENCY_KEY_IN_PROGRESS") release();
      },
    });
    const customerReference = unique("member");
    const customer = await bayad.customers.create({ customerReference, email: "member@example.ph" });

    expect(customer.customerReference).toBe(customerReference);
    expect(notices[0]!.reason).toBe("TIMEOUT");
    expect(notices.map((notice) => notice.reason)).toContain("IDEMPOTENCY_KEY_IN_PROGRESS");
    expect(proxy!.seen.map((seen) => seen.code)).toContain("IDEMPOTENCY_KEY_IN_PROGRESS");
    expect(new Set(proxy!.seen.map((seen) => seen.idempotencyKey)).size).toBe(1);
    expect(await platform.stores.payments.collection({ name: "customers" }).count({ customerReference })).toBe(1);
  });

  it("retries PAYMENT_OUTCOME_UNKNOWN with the same key until the checkout settles", async () => {
    const bayad = await behind(() => ({ kind: "pass" }), { maxRetries: 0 });
    const body = checkoutBody(1504); // the sandbox's silent provider
    const checkout = await bayad.checkouts.create(body);

    expect(checkout).toMatchObject({ referenceId: body.referenceId, status: "pending" });
    expect(proxy!.seen[0]!.code).toBe("PAYMENT_OUTCOME_UNKNOWN");
    expect(proxy!.seen.at(-1)!.status).toBe(201);
    expect(new Set(proxy!.seen.map((seen) => seen.idempotencyKey)).size).toBe(1);
    expect(await checkoutsWithReference(platform, body.referenceId)).toBe(1);
  });

  it("stops retrying PAYMENT_OUTCOME_UNKNOWN at the deadline, however many retries that was", async () => {
    // A gateway whose payment never settles: only the deadline ends the call (maxRetries does not count these).
    const bayad = await behind(() => ({ kind: "status", status: 409, code: "PAYMENT_OUTCOME_UNKNOWN" }), { maxRetries: 0, deadlineMs: 300 });
    const idempotencyKey = `order-${unique("key")}`;
    const error = (await bayad.checkouts.create(checkoutBody(), { idempotencyKey }).catch((caught: unknown) => caught)) as BayadError;

    expect(error).toBeInstanceOf(BayadError);
    expect(error).toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN", status: 409 });
    expect(proxy!.seen.length).toBeGreaterThan(1);
    expect(new Set(proxy!.seen.map((seen) => seen.idempotencyKey))).toEqual(new Set([idempotencyKey]));
  });
});

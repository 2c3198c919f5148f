import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, type RunningServer } from "@bayad/kit";
import { readPaymentsConfig, startPaymentsServer } from "@bayad/payments-service";
import type { Store } from "@bayad/store";
import { expectError, newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

const checkouts = "/api/v1/payments/checkouts";

/**
 * The payments service's own store, in which another writer changes each of `contended`'s
 * checkouts (its version) right before every transaction: a move of one of them loses every race.
 */
function contendedStore(store: Store, contended: Set<string>): Store {
  const checkoutsCollection = store.collection<{ _id: string; aggregateVersion: number }>({ name: "checkouts" });
  const transaction: Store["transaction"] = async (work) => {
    for (const id of contended) await checkoutsCollection.updateOne({ _id: id }, { $inc: { aggregateVersion: 1 } });
    return store.transaction(work);
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === "transaction") return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("a change to a resource that keeps changing under it", () => {
  let api: TestPlatform;
  let restarted: RunningServer;
  const contended = new Set<string>();

  beforeAll(async () => {
    // Over HTTP/2, so the payments service can be swapped for one over the contended store.
    api = await startTestPlatform({ PLATFORM_RPC: "http2" });
    const { platform } = api;
    const port = platform.services.payments.port;
    await platform.services.payments.close();
    restarted = await startPaymentsServer({
      store: contendedStore(platform.stores.payments, contended),
      config: readPaymentsConfig({}),
      logger: createLogger("test", "silent"),
      port,
    });
  });
  afterAll(async () => {
    await restarted?.close();
    await api?.close();
  });

  it("answers 409 CONCURRENT_MODIFICATION after a bounded number of tries, changes nothing, and leaves the key for a retry", async () => {
    const created = await api.request("POST", checkouts, {
      body: { referenceId: unique("order"), amount: { amountMinor: 150_00, currency: "PHP" }, successUrl: "https://shop.example.ph/thanks", cancelUrl: "https://shop.example.ph/cart" },
    });
    expect(created.status).toBe(201);
    const checkoutId: string = created.body.data.checkoutId;

    contended.add(checkoutId);
    const key = newIdempotencyKey();
    const refused = await api.request("POST", `${checkouts}/${checkoutId}/cancel`, { idempotencyKey: key });
    expectError(refused, 409, "CONCURRENT_MODIFICATION");
    expect(refused.body.meta.correlationId).toBe(refused.headers.get("X-Correlation-Id"));
    const unchanged = await api.request("GET", `${checkouts}/${checkoutId}`);
    expect(unchanged.body.data.status).toBe("pending");

    // The other writer is done: the same key is a first attempt again, not a replay of the 409.
    contended.delete(checkoutId);
    const cancelled = await api.request("POST", `${checkouts}/${checkoutId}/cancel`, { idempotencyKey: key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get("Idempotent-Replayed")).toBeNull();
    expect(cancelled.body.data.status).toBe("cancelled");
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "@bayad/platform";
import { createEmbeddedStore, type Doc } from "@bayad/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutsCollection, paymentRecordsCollection, storedCheckout } from "./stored-checkouts.js";

/** Each field's type as stored: the seeded documents must be the platform's, field for field, in its order. */
/** A stored document as read back: its fields, whatever they are. */
type StoredDocument = Doc & Record<string, unknown>;

function shape(document: Record<string, unknown>): [string, string][] {
  return Object.entries(document).map(([field, value]) => [field, value === null ? "null" : value instanceof Date ? "date" : Array.isArray(value) ? "array" : typeof value]);
}

/**
 * The seeded documents against a checkout the platform itself created through the API and
 * projected into the records feed: what the memory-at-scale section measures is only as good
 * as this likeness.
 */
describe("storedCheckout", () => {
  let dataDir: string;
  let platformCheckout: StoredDocument;
  let platformRecord: StoredDocument;
  let projectId: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "bench-stored-checkouts-"));
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "warn" };
    delete env.NATS_URL; // the in-process bus, as the benchmark's platform has
    const platform = await startPlatform({ dataDir, env });
    projectId = platform.projectId;
    let checkoutId: string;
    try {
      const created = await fetch(`${platform.gatewayUrl}/api/v1/payments/checkouts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${platform.testApiKey}`, "Idempotency-Key": "bench-shape-of-a-stored-checkout", "Content-Type": "application/json" },
        body: JSON.stringify({ referenceId: "shape-order", amount: { amountMinor: 150_000, currency: "PHP" }, successUrl: "https://shop.example.com/paid", cancelUrl: "https://shop.example.com/cart" }),
      });
      const answer = (await created.json()) as { data: { checkoutId: string } };
      expect(created.status, JSON.stringify(answer)).toBe(201);
      checkoutId = answer.data.checkoutId;
      // The feed projects the checkout's events behind the answer: poll until it shows it pending.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const page = await fetch(`${platform.gatewayUrl}/api/v1/payments/records?limit=50`, { headers: { Authorization: `Bearer ${platform.testApiKey}` } });
        const records = ((await page.json()) as { data: { records: { id: string; status: string }[] } }).data.records;
        if (records.some((record) => record.id === checkoutId && record.status === "pending")) break;
        if (Date.now() > deadline) throw new Error("the records feed did not project the checkout");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await platform.close();
    }
    const payments = createEmbeddedStore({ path: join(dataDir, "payments") });
    const records = createEmbeddedStore({ path: join(dataDir, "records") });
    platformCheckout = (await payments.collection<StoredDocument>(checkoutsCollection).findOne({ _id: checkoutId }))!;
    platformRecord = (await records.collection<StoredDocument>(paymentRecordsCollection).findOne({ _id: checkoutId }))!;
    await Promise.all([payments.close(), records.close()]);
  }, 60_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stores a checkout and its record shaped as the platform stores them", () => {
    const { checkout, record } = storedCheckout(projectId, "run", 7, new Date());
    expect(shape(checkout as never)).toEqual(shape(platformCheckout));
    expect(shape(record as never)).toEqual(shape(platformRecord));
    const sameFacts = (document: Record<string, unknown>) => {
      const { _id, referenceId, idempotencyKey, createdAt, updatedAt, checkoutUrl, pageToken, providerReference, ...facts } = document;
      return facts;
    };
    expect(sameFacts(checkout as never)).toEqual(sameFacts(platformCheckout));
    expect(sameFacts(record as never)).toEqual(sameFacts(platformRecord));
    expect(checkout.checkoutUrl).toMatch(new RegExp(`^/sandbox/checkouts/${checkout._id}\\?token=${checkout.pageToken}$`));
    expect(String(platformCheckout.checkoutUrl)).toMatch(/^\/sandbox\/checkouts\/chk_\w+\?token=[\w-]+$/);
    expect(checkout.pageToken.length).toBe(String(platformCheckout.pageToken).length);
    expect(checkout.providerReference.length).toBe(String(platformCheckout.providerReference).length);
  });
});

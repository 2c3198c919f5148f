import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { BillingService } from "@bayad/proto";
import { parseKeyRing, sealedKeyId } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { createBillingService } from "../billing-service.js";
import { createPlan } from "../plans/plans.js";
import { createSubscription } from "../subscriptions/subscriptions.js";
import { mutating, T0 } from "../test-support/billing-fixture.js";
import { billingOver, customerDirectory } from "../test-support/messages-fixture.js";

const OLD_KEY = "billing-outbox-older-key-0123456789abcdefg";
const NEW_KEY = "billing-outbox-newer-key-0123456789abcdefg";
const customers = customerDirectory({ cus_a: { email: "juan@example.ph", phone: "+639171234567" } });
const ring = (text: string) => parseKeyRing(text, 32);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Billing over `store` whose development outbox seals under `keys`, and its service as a client sees it. */
async function billingWith(store: Store, keys: string) {
  const billing = billingOver(store, { customers, clock: { at: T0 }, sealingKeys: ring(keys) });
  await store.ensureIndexes();
  const service = createBillingService(billing.deps, billing.messaging);
  const client = createClient(BillingService, createRouterTransport((router) => router.service(BillingService, service)));
  return { billing, client };
}

/** The key id of every sealed text the development outbox keeps. */
async function sealedKeyIds(store: Store): Promise<string[]> {
  const records = await store.collection<{ _id: string; sealedBody: string; sealedHtml?: string }>({ name: "dev_messages" }).find({});
  return records.flatMap((record) => [record.sealedBody, ...(record.sealedHtml ? [record.sealedHtml] : [])]).map(sealedKeyId);
}

describe("resealing billing's messages", () => {
  it("seals the development outbox's messages under the newest key of SECRETS_KEYS, after which the old key can go", async () => {
    const path = mkdtempSync(join(tmpdir(), "bayad-billing-reseal-"));
    dirs.push(path);
    let store = createTestStore({ path });
    const first = await billingWith(store, `k1:${OLD_KEY}`);
    await first.billing.messaging.deps.settings.put({ projectId: "prj_a", smsEnabled: true, defaultLocale: "en", supportContact: "" }, T0);
    const plan = await createPlan(first.billing.deps, mutating(), { name: "Gold", amountMinor: 123_450, interval: "monthly" });
    await createSubscription(first.billing.deps, mutating(), { customerId: "cus_a", referenceId: "ref-a", priceId: plan._id, projectName: "Kape ni Juan" });
    await first.billing.deliverEvents();
    // The invoice by e-mail (text and HTML) and by SMS.
    expect(await sealedKeyIds(store)).toEqual(["k1", "k1", "k1"]);
    await store.close();

    store = createTestStore({ path });
    const rotated = await billingWith(store, `k1:${OLD_KEY},k2:${NEW_KEY}`);
    expect((await rotated.client.resealBillingMessages({})).counts).toMatchObject({ resealed: 3, current: 0, unreadable: 0 });
    expect((await rotated.client.resealBillingMessages({})).counts).toMatchObject({ resealed: 0, current: 3, unreadable: 0 });
    expect(await sealedKeyIds(store)).toEqual(["k2", "k2", "k2"]);
    await store.close();

    // The new key alone opens every message; the old one alone, none.
    store = createTestStore({ path });
    const after = await billingWith(store, `k2:${NEW_KEY}`);
    const held = await after.client.listOutboxMessages({ projectId: "prj_a" });
    expect(held.messages.map((message) => [message.kind, message.channel])).toEqual(expect.arrayContaining([["invoice", "email"], ["invoice", "sms"]]));
    expect(held.messages[0]!.body).toContain("Kape ni Juan");
    expect(await billingOver(store, { customers, clock: { at: T0 }, sealingKeys: ring(`k1:${OLD_KEY}`) }).outbox.list({ projectId: "prj_a" })).toEqual([]);
    await store.close();
  });

  it("answers nothing resealed where billing sends no messages", async () => {
    const store = createTestStore();
    const { billing } = await billingWith(store, `k1:${OLD_KEY}`);
    const service = createBillingService(billing.deps);
    const client = createClient(BillingService, createRouterTransport((router) => router.service(BillingService, service)));
    expect((await client.resealBillingMessages({})).counts).toMatchObject({ resealed: 0, current: 0, unreadable: 0 });
  });
});

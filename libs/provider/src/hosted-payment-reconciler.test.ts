import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createLogger, Registry } from "@bayad/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHostedPaymentReconciler, type HostedPaymentReconcilerOptions, type UnsettledHostedPayment } from "./hosted-payment-reconciler.js";
import { createPaymongoClient, type PaymongoClient } from "./paymongo/paymongo-client.js";
import { createPaymongoProvider, type PaymongoProvider } from "./paymongo/paymongo-provider.js";
import { context, newLiveKey, php } from "./paymongo/test-support/simulator-fixture.js";

let simulator: PaymongoSimulator;
let client: PaymongoClient;
let provider: PaymongoProvider;

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
  client = createPaymongoClient({ apiBase: simulator.url, secretKey: newLiveKey() });
  provider = createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
});
afterAll(async () => {
  await client.close();
  await simulator.close();
});

/** A service's unpaid links, kept in memory as its collection would keep them (by id). */
function service(links: UnsettledHostedPayment[]) {
  const paid: Array<{ id: string; providerPaymentId: string }> = [];
  const unsettled: HostedPaymentReconcilerOptions["unsettled"] = async (_before, afterId, limit) =>
    links
      .filter((link) => !paid.some((done) => done.id === link.id) && (afterId === undefined || link.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  const settle: HostedPaymentReconcilerOptions["settle"] = async (link, providerPaymentId) => {
    if (paid.some((done) => done.id === link.id)) return false;
    paid.push({ id: link.id, providerPaymentId });
    return true;
  };
  return { unsettled, settle, paid };
}

async function paymongoLink(resourceId: string): Promise<UnsettledHostedPayment> {
  const page = await provider.createHostedPayment(
    { kind: "payment_link", resourceId, referenceId: `ref-${resourceId}`, amount: php(100_00), description: "A class" },
    context(),
  );
  return { id: resourceId, providerAccountId: "pa_one", providerReference: page.providerReference };
}

function reconciler(options: Partial<HostedPaymentReconcilerOptions> & Pick<HostedPaymentReconcilerOptions, "unsettled" | "settle">) {
  return startHostedPaymentReconciler({
    kind: "payment_link",
    lease: { acquire: async () => true },
    holderId: "test",
    accounts: { paymongoOf: async (id) => (id === "pa_one" ? provider : undefined) },
    afterMs: 1_000,
    // Rounds are run by the test (tick); the timer never fires within it.
    intervalMs: 3_600_000,
    logger: createLogger("test", "silent"),
    now: () => new Date(),
    ...options,
  });
}

describe("startHostedPaymentReconciler", () => {
  it("marks paid the links PayMongo has paid, with PayMongo's payment, and leaves the others", async () => {
    const paidLink = await paymongoLink("link_a1");
    const unpaidLink = await paymongoLink("link_a2");
    const { paymentId } = await simulator.payLink(paidLink.providerReference);
    const links = service([paidLink, unpaidLink]);
    const metrics = new Registry();
    const running = reconciler({ ...links, metrics });
    try {
      expect(await running.tick()).toBe(1);
      expect(links.paid).toEqual([{ id: "link_a1", providerPaymentId: paymentId }]);
      // Paid once: the next round finds nothing more.
      expect(await running.tick()).toBe(0);
      expect(await metrics.getSingleMetricAsString("bayad_provider_reconciled_total")).toContain('bayad_provider_reconciled_total{kind="payment_link"} 1');
    } finally {
      await running.stop();
    }
  });

  it("does nothing without the lease, its further work included", async () => {
    const link = await paymongoLink("link_b1");
    await simulator.payLink(link.providerReference);
    const links = service([link]);
    let further = 0;
    const alsoEachRound = async () => (further += 1);
    const running = reconciler({ ...links, lease: { acquire: async () => false }, alsoEachRound });
    const holding = reconciler({ ...service([]), alsoEachRound });
    try {
      expect(await running.tick()).toBe(0);
      expect(links.paid).toEqual([]);
      expect(further).toBe(0);
      await holding.tick();
      expect(further).toBe(1);
      await holding.stop();
    } finally {
      await running.stop();
    }
  });

  it("walks through more links than one round reads, page by page, and starts over", async () => {
    const first = await paymongoLink("link_c1");
    const second = await paymongoLink("link_c2");
    const third = await paymongoLink("link_c3");
    await simulator.payLink(third.providerReference);
    const links = service([first, second, third]);
    const running = reconciler({ ...links, batch: 2 });
    try {
      // Round 1 reads c1 and c2 (unpaid), round 2 reads c3 (paid).
      expect(await running.tick()).toBe(0);
      expect(await running.tick()).toBe(1);
      await simulator.payLink(first.providerReference);
      // Round 3 starts over at c1.
      expect(await running.tick()).toBe(1);
      expect(links.paid.map((link) => link.id)).toEqual(["link_c3", "link_c1"]);
    } finally {
      await running.stop();
    }
  });

  it("skips links of a removed account and goes on after one it cannot read", async () => {
    const gone = { id: "link_d1", providerAccountId: "pa_gone", providerReference: "link_whatever" };
    const unknown = { id: "link_d2", providerAccountId: "pa_one", providerReference: "link_not_at_paymongo" };
    const paid = await paymongoLink("link_d3");
    await simulator.payLink(paid.providerReference);
    const links = service([gone, unknown, paid]);
    const running = reconciler(links);
    try {
      expect(await running.tick()).toBe(1);
      expect(links.paid.map((link) => link.id)).toEqual(["link_d3"]);
    } finally {
      await running.stop();
    }
  });
});

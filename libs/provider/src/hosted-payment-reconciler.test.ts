import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createLogger, Registry } from "@bayad/kit";
import { Writable } from "node:stream";
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

  it("lets a link whose read keeps failing wait on its own, while the others are read and settled", async () => {
    const failing = await paymongoLink("link_e1");
    const paid = await paymongoLink("link_e2");
    await simulator.payLink(paid.providerReference);
    // PayMongo refuses every read of e1 (a 4xx is not retried by the adapter: one request per read).
    simulator.injectFault({ method: "GET", path: `/v1/links/${failing.providerReference}`, status: 404, times: 10 });
    const faultsLeft = async () => ((await (await fetch(`${simulator.url}/__simulator/faults`)).json()) as { data: Array<{ times: number }> }).data[0]?.times;
    let clock = Date.now();
    const links = service([failing, paid]);
    const running = reconciler({ ...links, intervalMs: 60_000, now: () => new Date(clock) });
    try {
      expect(await running.tick()).toBe(1);
      expect(links.paid.map((link) => link.id)).toEqual(["link_e2"]);
      expect(await faultsLeft()).toBe(9);
      // Within its wait, the failing link is not read again.
      clock += 30_000;
      await running.tick();
      expect(await faultsLeft()).toBe(9);
      // Once its wait (one interval after the first failure) is over, it is.
      clock += 31_000;
      await running.tick();
      expect(await faultsLeft()).toBe(8);
      // The second failure in a row doubles the wait.
      clock += 61_000;
      await running.tick();
      expect(await faultsLeft()).toBe(8);
    } finally {
      simulator.clearFaults();
      await running.stop();
    }
  });

  it("sets an account aside when PayMongo refuses its key, asking nothing more of it until its wait is over", async () => {
    const revokedKey = newLiveKey();
    const revokedClient = createPaymongoClient({ apiBase: simulator.url, secretKey: revokedKey });
    const revoked = createPaymongoProvider({ client: revokedClient, paymentMethodTypes: ["gcash"], livemode: true });
    const made = async (id: string) => {
      const page = await revoked.createHostedPayment({ kind: "payment_link", resourceId: id, referenceId: `ref-${id}`, amount: php(100_00), description: "A class" }, context());
      return { id, providerAccountId: "pa_revoked", providerReference: page.providerReference };
    };
    const first = await made("link_f1");
    const second = await made("link_f2");
    const other = await paymongoLink("link_f3");
    await simulator.payLink(other.providerReference);
    simulator.rollSecretKey(revokedKey);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const refusals = () => lines.filter((line) => line.includes("refused the account's key")).length;
    let clock = Date.now();
    const links = service([first, second, other]);
    const running = reconciler({
      ...links,
      accounts: { paymongoOf: async (id) => (id === "pa_one" ? provider : id === "pa_revoked" ? revoked : undefined) },
      logger: createLogger("test", "debug", sink),
      now: () => new Date(clock),
    });
    try {
      expect(await running.tick()).toBe(1);
      expect(links.paid.map((link) => link.id)).toEqual(["link_f3"]);
      // One 401 for the account, not one per link.
      expect(refusals()).toBe(1);
      expect(lines.join("")).not.toContain(revokedKey);
      clock += 59_000;
      await running.tick();
      expect(refusals()).toBe(1);
      clock += 2_000;
      await running.tick();
      expect(refusals()).toBe(2);
    } finally {
      await running.stop();
      await revokedClient.close();
    }
  });
});

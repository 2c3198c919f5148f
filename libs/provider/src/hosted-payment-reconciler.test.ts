import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { createLogger, Registry } from "@bayad/kit";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startHostedPaymentReconciler,
  type HostedPaymentReconcilerOptions,
  type HostedPaymentSettlement,
  type UnsettledHostedPayment,
} from "./hosted-payment-reconciler.js";
import { createPaymongoClient, type PaymongoClient } from "./paymongo/paymongo-client.js";
import { createPaymongoProvider, type PaymongoProvider } from "./paymongo/paymongo-provider.js";
import { context, newLiveKey, php } from "./paymongo/test-support/simulator-fixture.js";
import { createXenditProvider, type XenditProvider } from "./xendit/xendit-provider.js";
import { newXenditTestKey } from "./xendit/test-support/xendit-fixture.js";

let simulator: PaymongoSimulator;
let client: PaymongoClient;
let provider: PaymongoProvider;
let xenditSimulator: XenditSimulator;
let xendit: XenditProvider;

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
  client = createPaymongoClient({ apiBase: simulator.url, secretKey: newLiveKey() });
  provider = createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
  xenditSimulator = await startXenditSimulator();
  xendit = createXenditProvider({ secretKey: newXenditTestKey(), apiBase: xenditSimulator.url });
});
afterAll(async () => {
  await client.close();
  await simulator.close();
  await xendit.close();
  await xenditSimulator.close();
});

/** A service's unpaid links, kept in memory as its collection would keep them (by id). */
function service(links: UnsettledHostedPayment[]) {
  const paid: Array<{ id: string; providerPaymentId: string }> = [];
  const payments = new Map<string, HostedPaymentSettlement | undefined>();
  const unsettled: HostedPaymentReconcilerOptions["unsettled"] = async (_before, afterId, limit) =>
    links
      .filter((link) => !paid.some((done) => done.id === link.id) && (afterId === undefined || link.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit);
  const settle: HostedPaymentReconcilerOptions["settle"] = async (link, providerPaymentId, payment) => {
    if (paid.some((done) => done.id === link.id)) return false;
    paid.push({ id: link.id, providerPaymentId });
    payments.set(link.id, payment);
    return true;
  };
  return { unsettled, settle, paid, payments };
}

async function xenditInvoice(resourceId: string): Promise<UnsettledHostedPayment> {
  const page = await xendit.createHostedPayment({ kind: "invoice", resourceId, referenceId: `ref-${resourceId}`, amount: php(100_00), description: "A month" }, context());
  return { id: resourceId, providerAccountId: "px_one", providerReference: page.providerReference };
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
    accounts: { forAccount: async (id) => (id === "pa_one" ? provider : undefined) },
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
      accounts: { forAccount: async (id) => (id === "pa_one" ? provider : id === "pa_revoked" ? revoked : undefined) },
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

  it("reads each account's hosted payments through forAccount, PayMongo links and Xendit invoices alike, and leaves open and expired ones", async () => {
    const link = await paymongoLink("link_g1");
    const { paymentId } = await simulator.payLink(link.providerReference, { method: "gcash" });
    const paidInvoice = await xenditInvoice("inv_g2");
    xenditSimulator.payInvoice(paidInvoice.providerReference, "GCASH");
    const openInvoice = await xenditInvoice("inv_g3");
    const expiredInvoice = await xenditInvoice("inv_g4");
    xenditSimulator.expireInvoice(expiredInvoice.providerReference);
    const resources = service([link, paidInvoice, openInvoice, expiredInvoice]);
    const forAccount = async (id: string) => (id === "pa_one" ? provider : id === "px_one" ? xendit : undefined);
    const running = reconciler({ ...resources, accounts: { forAccount } });
    try {
      expect(await running.tick()).toBe(2);
      expect(resources.paid).toEqual([
        { id: "inv_g2", providerPaymentId: paidInvoice.providerReference },
        { id: "link_g1", providerPaymentId: paymentId },
      ]);
      // Xendit's invoice reports no fee; PayMongo's payment does (its amount less net_amount).
      expect(resources.payments.get("inv_g2")).toEqual({ id: paidInvoice.providerReference, method: "GCASH", paymentMethod: "gcash", paidAt: expect.any(Date) });
      expect(resources.payments.get("link_g1")).toEqual({ id: paymentId, method: "gcash", paymentMethod: "gcash", fee: expect.any(Number), paidAt: expect.any(Date) });
      expect(await running.tick()).toBe(0);
    } finally {
      await running.stop();
    }
  });

  it("sets a Xendit account aside when Xendit refuses its key, as for PayMongo", async () => {
    const refusedKey = "xnd_public_development_0123456789abcdef";
    const refused = createXenditProvider({ secretKey: refusedKey, apiBase: xenditSimulator.url });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const refusals = () => lines.filter((line) => line.includes("refused the account's key")).length;
    const first = { id: "inv_h1", providerAccountId: "px_refused", providerReference: "a".repeat(24) };
    const second = { id: "inv_h2", providerAccountId: "px_refused", providerReference: "b".repeat(24) };
    const paid = await xenditInvoice("inv_h3");
    xenditSimulator.payInvoice(paid.providerReference);
    let clock = Date.now();
    const resources = service([first, second, paid]);
    const running = reconciler({
      ...resources,
      accounts: { forAccount: async (id) => (id === "px_one" ? xendit : id === "px_refused" ? refused : undefined) },
      logger: createLogger("test", "debug", sink),
      now: () => new Date(clock),
    });
    try {
      expect(await running.tick()).toBe(1);
      expect(resources.paid.map((resource) => resource.id)).toEqual(["inv_h3"]);
      expect(refusals()).toBe(1);
      expect(lines.join("")).not.toContain(refusedKey);
      clock += 59_000;
      await running.tick();
      expect(refusals()).toBe(1);
      clock += 2_000;
      await running.tick();
      expect(refusals()).toBe(2);
    } finally {
      await running.stop();
      await refused.close();
    }
  });
});

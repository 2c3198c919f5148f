import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { AppError } from "@bayad/kit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderNoAnswerError, ProviderRefusedRefundError, type HostedPaymentRequest } from "../port.js";
import { XenditRejectedError } from "./xendit-errors.js";
import { createXenditClient } from "./xendit-client.js";
import { closeXenditInvoice, xenditHostedPaymentState } from "./xendit-invoices.js";
import { xenditInvoiceOf } from "./xendit-resources.js";
import { createXenditProvider, type XenditProvider, type XenditProviderOptions } from "./xendit-provider.js";
import { context, newId, newXenditTestKey, php, thrownBy } from "./test-support/xendit-fixture.js";

let simulator: XenditSimulator;
const providers: XenditProvider[] = [];

beforeAll(async () => {
  simulator = await startXenditSimulator({ settings: { refundSettlementMs: null } });
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  await simulator.close();
});

function provider(options: Partial<XenditProviderOptions> = {}): XenditProvider {
  const made = createXenditProvider({ secretKey: newXenditTestKey(), apiBase: simulator.url, responseTimeoutMs: 1_000, ...options });
  providers.push(made);
  return made;
}

const linkRequest = (amountMinor = 499_99, kind: HostedPaymentRequest["kind"] = "payment_link"): HostedPaymentRequest => ({
  kind,
  resourceId: newId(kind === "invoice" ? "inv" : "link"),
  referenceId: "class-7",
  amount: php(amountMinor),
  description: "A yoga class",
});

const invoicesOf = (resourceId: string) => simulator.objects("invoice").filter((invoice) => invoice["external_id"] === resourceId);
const YEAR_MS = 365 * 86_400_000;

describe("Xendit hosted payments (invoices)", () => {
  it("makes an invoice for the resource, the exact amount and a year to pay, and answers the same one when asked again", async () => {
    const xendit = provider({ channels: ["GCASH", "QRPH"] });
    const request = linkRequest(499_99);
    const page = await xendit.createHostedPayment(request, context());
    expect(page.providerReference).toMatch(/^[0-9a-f]{24}$/);
    expect(page).toMatchObject({ referenceNumber: request.resourceId, url: `${simulator.url}/web/${page.providerReference}`, pageToken: "" });
    const made = simulator.find(page.providerReference)!;
    expect(made).toMatchObject({
      external_id: request.resourceId,
      amount: 499.99,
      currency: "PHP",
      description: "A yoga class",
      status: "PENDING",
      available_ewallets: [{ ewallet_type: "GCASH" }],
      available_qr_codes: [{ qr_code_type: "QRPH" }],
      metadata: { bayad_resource_id: request.resourceId },
    });
    expect(Date.parse(made["expiry_date"] as string) - Date.parse(made["created"] as string)).toBeGreaterThan(YEAR_MS - 60_000);

    expect(await xendit.createHostedPayment(request, context())).toEqual(page);
    expect(invoicesOf(request.resourceId)).toHaveLength(1);
  });

  it("gives a subscription's invoice a year too, and falls back to the reference for a blank description", async () => {
    const xendit = provider();
    const request = { ...linkRequest(1_000_00, "invoice"), description: " " };
    const page = await xendit.createHostedPayment(request, context());
    const made = simulator.find(page.providerReference)!;
    expect(made["description"]).toBe("class-7");
    expect(Date.parse(made["expiry_date"] as string) - Date.parse(made["created"] as string)).toBeGreaterThan(YEAR_MS - 60_000);
  });

  it("offers only the channels that take the amount, takes the edges, and refuses an amount none takes before calling", async () => {
    const xendit = provider({ channels: ["GCASH", "QRPH"] });
    const big = await xendit.createHostedPayment(linkRequest(60_000_00), context());
    expect(simulator.find(big.providerReference)).toMatchObject({ amount: 60000, available_ewallets: [{ ewallet_type: "GCASH" }], available_qr_codes: [] });
    const smallest = await xendit.createHostedPayment(linkRequest(1_00), context());
    expect(simulator.find(smallest.providerReference)).toMatchObject({ amount: 1, available_qr_codes: [{ qr_code_type: "QRPH" }] });
    const largest = await xendit.createHostedPayment(linkRequest(100_000_00), context());
    expect(simulator.find(largest.providerReference)?.["amount"]).toBe(100000);
    const centavo = await xendit.createHostedPayment(linkRequest(100_000_00 - 1), context());
    expect(simulator.find(centavo.providerReference)?.["amount"]).toBe(99999.99);

    for (const amountMinor of [99, 100_000_01]) {
      const request = linkRequest(amountMinor);
      const error = await thrownBy(() => xendit.createHostedPayment(request, context()));
      expect((error as AppError).code).toBe("AMOUNT_OUT_OF_RANGE");
      expect(invoicesOf(request.resourceId)).toHaveLength(0);
    }
  });

  it("finds the invoice a create made when its answer was lost, and makes no second one", async () => {
    const xendit = provider();
    const request = linkRequest();
    simulator.injectFault({ method: "POST", path: "/v2/invoices", status: "reset", afterProcessing: true });
    const page = await xendit.createHostedPayment(request, context());
    expect(invoicesOf(request.resourceId).map((invoice) => invoice["id"])).toEqual([page.providerReference]);
  });

  it("stays ProviderNoAnswerError when a lost create made nothing, and a later call makes the one invoice", async () => {
    const xendit = provider();
    const request = linkRequest();
    simulator.injectFault({ method: "POST", path: "/v2/invoices", status: 500 });
    await expect(xendit.createHostedPayment(request, context())).rejects.toBeInstanceOf(ProviderNoAnswerError);
    expect(invoicesOf(request.resourceId)).toHaveLength(0);
    const page = await xendit.createHostedPayment(request, context());
    expect(invoicesOf(request.resourceId).map((invoice) => invoice["id"])).toEqual([page.providerReference]);
  });

  it("answers the invoice an earlier attempt made for the resource (looked up by external_id), the paid one first", async () => {
    const secretKey = newXenditTestKey();
    const xendit = provider({ secretKey });
    const request = linkRequest();
    const made = async () => {
      const response = await fetch(`${simulator.url}/v2/invoices`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}`, "content-type": "application/json" },
        body: JSON.stringify({ external_id: request.resourceId, amount: 499.99 }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const first = await made();
    const second = await made();
    expect((await xendit.createHostedPayment(request, context())).providerReference).toBe(first);
    simulator.payInvoice(second);
    expect((await xendit.createHostedPayment(request, context())).providerReference).toBe(second);
    // Another account's invoice for the same resource id is not this account's.
    expect((await provider().createHostedPayment(request, context())).providerReference).not.toMatch(new RegExp(`${first}|${second}`));
    expect(invoicesOf(request.resourceId)).toHaveLength(3);
  });

  it("reads an invoice back open, then paid on its page with the id refunds need, the channel and the time", async () => {
    const xendit = provider();
    const page = await xendit.createHostedPayment(linkRequest(250_50), context());
    expect(await xendit.hostedPaymentState?.(page.providerReference)).toEqual({ status: "open", amountMinor: 250_50, currency: "PHP" });
    const paid = await fetch(`${page.url}/pay`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "channel_code=PAYMAYA", redirect: "manual" });
    expect(paid.status).toBe(200);
    expect(await xendit.hostedPaymentState?.(page.providerReference)).toEqual({
      status: "paid",
      amountMinor: 250_50,
      currency: "PHP",
      providerPaymentId: page.providerReference,
      method: "PAYMAYA",
      paymentMethod: "maya",
      paidAt: new Date(simulator.find(page.providerReference)?.["paid_at"] as string),
    });
    simulator.settleInvoice(page.providerReference);
    expect((await xendit.hostedPaymentState?.(page.providerReference))?.status).toBe("paid");
    expect((await xendit.retrieveInvoiceById(page.providerReference)).state).toBe("paid");
  });

  it("reads an invoice expired, by time or by expireInvoiceById (which a paid one refuses), and makes a new one for its resource", async () => {
    const xendit = provider();
    const request = linkRequest();
    const timedOut = await xendit.createHostedPayment(request, context());
    simulator.expireInvoice(timedOut.providerReference);
    expect(await xendit.hostedPaymentState?.(timedOut.providerReference)).toEqual({ status: "expired", amountMinor: 499_99, currency: "PHP" });
    // An expired page is no page: asked again, the resource gets one that can be paid.
    const fresh = await xendit.createHostedPayment(request, context());
    expect(fresh.providerReference).not.toBe(timedOut.providerReference);

    expect((await xendit.expireInvoiceById(fresh.providerReference)).state).toBe("expired");
    expect((await xendit.expireInvoiceById(fresh.providerReference)).state).toBe("expired");
    const paid = await xendit.createHostedPayment(linkRequest(), context());
    simulator.payInvoice(paid.providerReference);
    const refused = await thrownBy(() => xendit.expireInvoiceById(paid.providerReference));
    expect(refused).toBeInstanceOf(XenditRejectedError);
  });

  it("closes an open invoice by expiring it, answers an expired one as it is, and leaves a paid one paid", async () => {
    const xendit = provider();
    const open = await xendit.createHostedPayment(linkRequest(), context());
    expect(await xendit.closeHostedPayment!(open.providerReference)).toEqual({ status: "expired", amountMinor: 499_99, currency: "PHP" });
    expect(simulator.find(open.providerReference)).toMatchObject({ status: "EXPIRED" });
    // Asked again (a retry after a lost answer): still expired, no error.
    expect((await xendit.closeHostedPayment!(open.providerReference)).status).toBe("expired");

    const paid = await xendit.createHostedPayment(linkRequest(), context());
    simulator.payInvoice(paid.providerReference, "GCASH");
    expect(await xendit.closeHostedPayment!(paid.providerReference)).toMatchObject({ status: "paid", providerPaymentId: paid.providerReference, method: "GCASH" });
    expect(simulator.find(paid.providerReference)).toMatchObject({ status: "PAID" });
  });

  it("answers paid when the payer pays between the read and the expire, which Xendit then refuses", async () => {
    const secretKey = newXenditTestKey();
    const page = await provider({ secretKey }).createHostedPayment(linkRequest(), context());
    const client = createXenditClient({ apiBase: simulator.url, secretKey });
    let reads = 0;
    // The first read finds it open; the payer pays right after it, before the expire is sent.
    const retrieve = async (id: string) => {
      const invoice = xenditInvoiceOf(await client.get(`/v2/invoices/${id}`, "retrieveInvoice"), "retrieveInvoice");
      if ((reads += 1) === 1) simulator.payInvoice(id);
      return invoice;
    };
    try {
      expect(await closeXenditInvoice(client, retrieve, page.providerReference)).toMatchObject({ status: "paid", providerPaymentId: page.providerReference });
      expect(reads).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("reopens a closed resource as a new invoice (a new id and page), and answers one still open as it is", async () => {
    const xendit = provider();
    const request = linkRequest();
    const first = await xendit.createHostedPayment(request, context());
    expect(await xendit.reopenHostedPayment!(request, first.providerReference, context())).toEqual(first);
    await xendit.closeHostedPayment!(first.providerReference);
    const reopened = await xendit.reopenHostedPayment!(request, first.providerReference, context());
    expect(reopened.providerReference).not.toBe(first.providerReference);
    expect(reopened.url).not.toBe(first.url);
    expect(simulator.find(reopened.providerReference)).toMatchObject({ external_id: request.resourceId, status: "PENDING", amount: 499.99 });
    expect(invoicesOf(request.resourceId).map((invoice) => invoice["status"]).sort()).toEqual(["EXPIRED", "PENDING"]);
  });

  it("refunds a paid invoice by invoice_id, in parts, through the refund rules", async () => {
    const xendit = provider();
    const page = await xendit.createHostedPayment(linkRequest(1_000_00), context());
    simulator.payInvoice(page.providerReference, "GCASH");
    const state = (await xendit.hostedPaymentState?.(page.providerReference))!;
    const payment = { paymentId: "link_1", amountMinor: 1_000_00, refundableMinor: 1_000_00, providerPaymentId: state.providerPaymentId!, method: state.method!, paidAt: state.paidAt!, openRefunds: 0 };
    expect(xendit.refundRefusal?.(payment, 400_00, new Date())).toBeUndefined();

    const first = await xendit.createRefund({ refundId: newId("re"), paymentId: "link_1", amount: php(400_00), reason: "requested_by_customer", providerPaymentId: state.providerPaymentId! }, context());
    expect(await xendit.retrieveRefundById(first.providerReference)).toMatchObject({ state: "pending", amountMinor: 400_00, invoiceId: page.providerReference });
    expect(simulator.find(first.providerReference)).toMatchObject({ invoice_id: page.providerReference, payment_request_id: null, channel_code: "GCASH", reason: "REQUESTED_BY_CUSTOMER" });
    simulator.settleRefund(first.providerReference, "SUCCEEDED");
    const rest = await xendit.createRefund({ refundId: newId("re"), paymentId: "link_1", amount: php(600_00), reason: "duplicate", providerPaymentId: state.providerPaymentId! }, context());
    simulator.settleRefund(rest.providerReference, "SUCCEEDED");
    const more = await thrownBy(() => xendit.createRefund({ refundId: newId("re"), paymentId: "link_1", amount: php(1), reason: "others", providerPaymentId: state.providerPaymentId! }, context()));
    expect(more).toBeInstanceOf(ProviderRefusedRefundError);
    expect((more as AppError).details).toContain("provider: REFUND_AMOUNT_EXCEEDED");
  });

  it("refuses to refund an invoice paid by QR Ph: by the rules before calling, and Xendit's own refusal if asked", async () => {
    const xendit = provider();
    const page = await xendit.createHostedPayment(linkRequest(), context());
    simulator.payInvoice(page.providerReference, "QRPH");
    const state = (await xendit.hostedPaymentState?.(page.providerReference))!;
    expect(state.method).toBe("QRPH");
    const payment = { paymentId: "link_2", amountMinor: 499_99, refundableMinor: 499_99, providerPaymentId: state.providerPaymentId!, method: state.method!, openRefunds: 0 };
    expect(xendit.refundRefusal?.(payment, 100_00, new Date())?.details?.[0]).toContain("rule: method_not_refundable");
    const refused = await thrownBy(() => xendit.createRefund({ refundId: newId("re"), paymentId: "link_2", amount: php(100_00), reason: "others", providerPaymentId: state.providerPaymentId! }, context()));
    expect(refused).toBeInstanceOf(ProviderRefusedRefundError);
    expect((refused as AppError).details).toContain("provider: REFUND_NOT_SUPPORTED");
  });
});

describe("xenditHostedPaymentState", () => {
  it("names the invoice's payment request when it has one, and settles nothing on a status or amount it cannot read", () => {
    const paid = { id: "a".repeat(24), state: "paid" as const, amountMinor: 100_00, currency: "PHP", paymentRequestId: "pr-1", paymentChannel: "GCASH" };
    expect(xenditHostedPaymentState(paid)).toMatchObject({ status: "paid", providerPaymentId: "pr-1", method: "GCASH" });
    for (const unreadable of [{ ...paid, state: "unknown" as const }, { id: paid.id, state: "paid" as const }]) {
      expect(() => xenditHostedPaymentState(unreadable)).toThrow(expect.objectContaining({ code: "PROVIDER_UNAVAILABLE" }));
    }
  });
});

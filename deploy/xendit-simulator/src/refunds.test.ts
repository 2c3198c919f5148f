import { afterEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator, type XenditSimulatorOptions } from "./index.js";
import { apiClient, invoiceBody, paidRequest, paymentRequestBody, type ApiClient } from "./test-support/api-client.js";

let sim: XenditSimulator;
let api: ApiClient;
async function start(options: XenditSimulatorOptions = { settings: { refundSettlementMs: null } }) {
  sim = await startXenditSimulator(options);
  api = apiClient(sim.url);
}
afterEach(async () => {
  await sim.close();
});

const refund = (body: Record<string, unknown>, headers?: Record<string, string>) => api.post("/refunds", { reason: "REQUESTED_BY_CUSTOMER", ...body }, headers);

describe("POST /refunds", () => {
  it("answers 200 PENDING for the full amount when amount is left out, then settles SUCCEEDED by itself", async () => {
    await start({ settings: { refundSettlementMs: 0 } });
    const id = await paidRequest(api, 150.5);
    const answer = await refund({ payment_request_id: id, reference_id: "rf-1" });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^rfd-/),
      payment_request_id: id,
      payment_id: expect.stringMatching(/^py-/),
      channel_code: "GCASH",
      currency: "PHP",
      amount: 150.5,
      status: "PENDING",
      reason: "REQUESTED_BY_CUSTOMER",
    });
    await expect.poll(async () => (await api.get(`/refunds/${answer.body.id}`)).body.status, { timeout: 5_000 }).toBe("SUCCEEDED");
  });

  it("takes partial refunds one at a time and never more than what is left", async () => {
    await start();
    const id = await paidRequest(api, 100);
    const first = await refund({ payment_request_id: id, amount: 60.1 });
    expect(first.body.status).toBe("PENDING");
    const meanwhile = await refund({ payment_request_id: id, amount: 1 });
    expect(meanwhile).toMatchObject({ status: 400, body: { error_code: "REFUND_IN_PROGRESS" } });
    sim.settleRefund(first.body.id, "SUCCEEDED");
    const tooMuch = await refund({ payment_request_id: id, amount: 39.91 });
    expect(tooMuch).toMatchObject({ status: 400, body: { error_code: "REFUND_AMOUNT_EXCEEDED" } });
    const rest = await refund({ payment_request_id: id });
    expect(rest.body.amount).toBe(39.9);
  });

  it("frees a failed refund's amount to refund again", async () => {
    await start();
    const id = await paidRequest(api, 100);
    const failed = await refund({ payment_request_id: id });
    sim.settleRefund(failed.body.id, "FAILED", "INSUFFICIENT_BALANCE");
    expect((await api.get(`/refunds/${failed.body.id}`)).body).toMatchObject({ status: "FAILED", failure_code: "INSUFFICIENT_BALANCE" });
    expect((await refund({ payment_request_id: id })).body.amount).toBe(100);
  });

  it("refuses QRPH payments with 403 REFUND_NOT_SUPPORTED", async () => {
    await start();
    const request = await api.create("/v3/payment_requests", paymentRequestBody({ channel_code: "QRPH", channel_properties: {} }));
    sim.payPaymentRequest(request.payment_request_id);
    expect(await refund({ payment_request_id: request.payment_request_id })).toMatchObject({ status: 403, body: { error_code: "REFUND_NOT_SUPPORTED" } });
  });

  it.each([
    ["no reason", { reason: undefined }, 400, "API_VALIDATION_ERROR"],
    ["a reason outside the enum", { reason: "requested_by_customer" }, 400, "API_VALIDATION_ERROR"],
    ["an amount of 3 decimals", { amount: 1.001 }, 400, "API_VALIDATION_ERROR"],
    ["a zero amount", { amount: 0 }, 400, "API_VALIDATION_ERROR"],
  ])("refuses %s", async (_, body, status, code) => {
    await start();
    const id = await paidRequest(api);
    expect(await refund({ payment_request_id: id, ...body })).toMatchObject({ status, body: { error_code: code } });
  });

  it("refuses an unpaid request (INELIGIBLE_TRANSACTION_STATUS) and another account's (DATA_NOT_FOUND)", async () => {
    await start();
    const unpaid = await api.create("/v3/payment_requests", paymentRequestBody());
    expect((await refund({ payment_request_id: unpaid.payment_request_id })).body.error_code).toBe("INELIGIBLE_TRANSACTION_STATUS");
    const theirs = await paidRequest(apiClient(sim.url));
    expect(await refund({ payment_request_id: theirs })).toMatchObject({ status: 404, body: { error_code: "DATA_NOT_FOUND" } });
  });
});

describe("POST /refunds of an invoice (invoice_id)", () => {
  async function paidInvoice(amount: number, channel = "GCASH"): Promise<string> {
    const invoice = await api.create("/v2/invoices", invoiceBody({ amount }));
    sim.payInvoice(invoice.id, channel);
    return invoice.id;
  }

  it("refunds a paid invoice in parts, naming the invoice and its payment, never more than was paid", async () => {
    await start();
    const id = await paidInvoice(200);
    const paymentId = (await api.get(`/v2/invoices/${id}`)).body.payment_id;
    const first = await refund({ invoice_id: id, amount: 150 });
    expect(first).toMatchObject({ status: 200, body: { invoice_id: id, payment_request_id: null, payment_id: paymentId, channel_code: "GCASH", amount: 150, status: "PENDING" } });
    expect((await refund({ invoice_id: id, amount: 1 })).body.error_code).toBe("REFUND_IN_PROGRESS");
    sim.settleRefund(first.body.id, "SUCCEEDED");
    expect((await refund({ invoice_id: id, amount: 50.01 })).body.error_code).toBe("REFUND_AMOUNT_EXCEEDED");
    expect((await refund({ invoice_id: id })).body.amount).toBe(50);
  });

  it("refunds a SETTLED invoice, frees a failed refund's amount, and refuses QRPH, unpaid and expired invoices", async () => {
    await start();
    const settled = await paidInvoice(100);
    sim.settleInvoice(settled);
    const failed = await refund({ invoice_id: settled });
    sim.settleRefund(failed.body.id, "FAILED");
    expect((await refund({ invoice_id: settled })).body).toMatchObject({ amount: 100, status: "PENDING" });
    expect(await refund({ invoice_id: await paidInvoice(100, "QRPH") })).toMatchObject({ status: 403, body: { error_code: "REFUND_NOT_SUPPORTED" } });
    const unpaid = await api.create("/v2/invoices", invoiceBody());
    expect((await refund({ invoice_id: unpaid.id })).body.error_code).toBe("INELIGIBLE_TRANSACTION_STATUS");
    sim.expireInvoice(unpaid.id);
    expect((await refund({ invoice_id: unpaid.id })).body.error_code).toBe("INELIGIBLE_TRANSACTION_STATUS");
  });

  it("takes exactly one of payment_request_id and invoice_id, each of its own kind and account", async () => {
    await start();
    const invoice = await paidInvoice(100);
    const request = await paidRequest(api, 100);
    expect((await refund({ invoice_id: invoice, payment_request_id: request })).body.error_code).toBe("API_VALIDATION_ERROR");
    expect((await refund({})).body.error_code).toBe("API_VALIDATION_ERROR");
    expect((await refund({ invoice_id: request })).status).toBe(404);
    expect((await refund({ payment_request_id: invoice })).status).toBe(404);
    const theirs = await apiClient(sim.url).create("/v2/invoices", invoiceBody());
    sim.payInvoice(theirs.id);
    expect((await refund({ invoice_id: theirs.id })).status).toBe(404);
  });
});

describe("idempotency-key on POST /refunds", () => {
  it("replays the first answer for the same key and body, and answers 409 for another body", async () => {
    await start();
    const id = await paidRequest(api, 100);
    const key = { "idempotency-key": "refund-1" };
    const first = await refund({ payment_request_id: id, amount: 10 }, key);
    const replay = await refund({ amount: 10, payment_request_id: id }, key);
    expect(replay).toMatchObject({ status: 200, body: { id: first.body.id, status: "PENDING" } });
    const other = await refund({ payment_request_id: id, amount: 20 }, key);
    expect(other).toMatchObject({ status: 409, body: { error_code: "DUPLICATE_ERROR" } });
    // Without a key, the pending refund stands in the way: only one refund was made.
    expect((await refund({ payment_request_id: id, amount: 10 })).body.error_code).toBe("REFUND_IN_PROGRESS");
  });
});

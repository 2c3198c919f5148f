import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, invoiceBody, type ApiClient } from "./test-support/api-client.js";

let sim: XenditSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startXenditSimulator();
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

describe("POST /v2/invoices", () => {
  it("makes a PENDING invoice with a 24-hex id, a simulator page, a 24 h default expiry and the channels that take its amount", async () => {
    const answer = await api.post("/v2/invoices", invoiceBody({ metadata: { bayad_resource_id: "link_7" } }));
    expect(answer.status).toBe(200);
    const invoice = answer.body;
    expect(invoice).toMatchObject({
      external_id: "link_7",
      status: "PENDING",
      amount: 499.99,
      currency: "PHP",
      description: "A yoga class",
      success_redirect_url: "https://shop.example.ph/ok",
      metadata: { bayad_resource_id: "link_7" },
      available_ewallets: [{ ewallet_type: "GCASH" }, { ewallet_type: "PAYMAYA" }, { ewallet_type: "GRABPAY" }, { ewallet_type: "SHOPEEPAY" }],
      available_qr_codes: [{ qr_code_type: "QRPH" }],
    });
    expect(invoice.id).toMatch(/^[0-9a-f]{24}$/);
    expect(invoice.user_id).toMatch(/^[0-9a-f]{24}$/);
    expect(invoice.invoice_url).toBe(`${sim.url}/web/${invoice.id}`);
    const lifetime = Date.parse(invoice.expiry_date) - Date.parse(invoice.created);
    expect(lifetime).toBeGreaterThan(86_399_000);
    expect(lifetime).toBeLessThanOrEqual(86_400_000);
    const page = await (await fetch(invoice.invoice_url)).text();
    expect(page).toContain("Pay with GCASH");
    expect(page).toContain("Fail an attempt");
    expect((await api.get(`/v2/invoices/${invoice.id}`)).body).toEqual(invoice);
  });

  it("takes invoice_duration up to a year and payment_methods, offering only those whose limits take the amount", async () => {
    const year = 365 * 86_400;
    const invoice = await api.create("/v2/invoices", invoiceBody({ amount: 60_000, invoice_duration: year, payment_methods: ["QRPH", "GCASH"] }));
    expect(Date.parse(invoice.expiry_date) - Date.parse(invoice.created)).toBeGreaterThan((year - 1) * 1000);
    expect(invoice.available_ewallets).toEqual([{ ewallet_type: "GCASH" }]);
    expect(invoice.available_qr_codes).toEqual([]);
  });

  it.each([
    ["external_id", { external_id: undefined }],
    ["a positive amount", { amount: 0 }],
    ["an amount of at most 2 decimals", { amount: 10.005 }],
    ["an amount some method takes", { amount: 100_000.01 }],
    ["an amount QRPH takes when only QRPH is asked for", { amount: 50_000.01, payment_methods: ["QRPH"] }],
    ["known payment methods", { payment_methods: ["OVO"] }],
    ["PHP", { currency: "IDR" }],
    ["an invoice_duration of at most a year", { invoice_duration: 365 * 86_400 + 1 }],
    ["a whole invoice_duration", { invoice_duration: 1.5 }],
    ["absolute redirect URLs", { success_redirect_url: "/ok" }],
  ])("refuses an invoice without %s", async (_, overrides) => {
    const answer = await api.post("/v2/invoices", invoiceBody(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe("API_VALIDATION_ERROR");
    expect(sim.objects("invoice")).toEqual([]);
  });

  it("takes the channels' edges: ₱1.00 and ₱100,000.00", async () => {
    expect((await api.create("/v2/invoices", invoiceBody({ amount: 1 }))).available_qr_codes).toEqual([{ qr_code_type: "QRPH" }]);
    expect((await api.create("/v2/invoices", invoiceBody({ amount: 100_000 }))).available_qr_codes).toEqual([]);
    expect((await api.post("/v2/invoices", invoiceBody({ amount: 0.99 }))).status).toBe(400);
  });
});

describe("GET /v2/invoices", () => {
  it("lists the account's invoices newest first, by external_id when asked, as a JSON array", async () => {
    const first = await api.create("/v2/invoices", invoiceBody({ external_id: "link_a" }));
    const second = await api.create("/v2/invoices", invoiceBody({ external_id: "link_b" }));
    const third = await api.create("/v2/invoices", invoiceBody({ external_id: "link_a" }));
    await apiClient(sim.url).create("/v2/invoices", invoiceBody({ external_id: "link_a" }));
    expect((await api.get("/v2/invoices?external_id=link_a")).body.map((i: { id: string }) => i.id)).toEqual([third.id, first.id]);
    expect((await api.get("/v2/invoices")).body.map((i: { id: string }) => i.id)).toEqual([third.id, second.id, first.id]);
    expect((await api.get("/v2/invoices?limit=1")).body).toHaveLength(1);
    expect((await api.get("/v2/invoices?external_id=none")).body).toEqual([]);
    expect((await api.get("/v2/invoices?limit=0")).status).toBe(400);
  });

  it("keeps another account's invoice to itself", async () => {
    const theirs = await apiClient(sim.url).create("/v2/invoices", invoiceBody());
    expect(await api.get(`/v2/invoices/${theirs.id}`)).toMatchObject({ status: 404, body: { error_code: "DATA_NOT_FOUND" } });
    expect((await api.post(`/invoices/${theirs.id}/expire!`)).status).toBe(404);
  });
});

describe("paying and expiring an invoice", () => {
  it("PAID with the payment's channel, method, id and time, then SETTLED", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody());
    const { paymentId } = sim.payInvoice(invoice.id, "PAYMAYA");
    const paid = (await api.get(`/v2/invoices/${invoice.id}`)).body;
    expect(paid).toMatchObject({ status: "PAID", paid_amount: 499.99, payment_channel: "PAYMAYA", payment_method: "EWALLET", payment_id: paymentId });
    expect(Date.parse(paid.paid_at)).not.toBeNaN();
    expect(() => sim.payInvoice(invoice.id)).toThrow(/PAID/);
    expect((await api.post(`/invoices/${invoice.id}/expire!`)).status).toBe(400);
    sim.settleInvoice(invoice.id);
    expect((await api.get(`/v2/invoices/${invoice.id}`)).body.status).toBe("SETTLED");
  });

  it("the page's pay button pays with the channel chosen and sends the payer to success_redirect_url", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody());
    const response = await fetch(`${invoice.invoice_url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "channel_code=QRPH",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://shop.example.ph/ok");
    expect((await api.get(`/v2/invoices/${invoice.id}`)).body).toMatchObject({ status: "PAID", payment_channel: "QRPH", payment_method: "QR_CODE" });
  });

  it("the page's fail button leaves the invoice PENDING and sends the payer to failure_redirect_url", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody());
    const response = await fetch(`${invoice.invoice_url}/fail`, { method: "POST", redirect: "manual" });
    expect(response.headers.get("location")).toBe("https://shop.example.ph/fail");
    expect((await api.get(`/v2/invoices/${invoice.id}`)).body.status).toBe("PENDING");
  });

  it("refuses a channel the invoice does not offer", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody({ payment_methods: ["GCASH"] }));
    expect(() => sim.payInvoice(invoice.id, "QRPH")).toThrow(/takes GCASH/);
  });

  it("POST /invoices/{id}/expire! expires it (again: unchanged), after which it cannot be paid", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody());
    const expired = await api.post(`/invoices/${invoice.id}/expire!`);
    expect(expired).toMatchObject({ status: 200, body: { id: invoice.id, status: "EXPIRED" } });
    expect((await api.post(`/invoices/${invoice.id}/expire!`)).body.status).toBe("EXPIRED");
    expect(() => sim.payInvoice(invoice.id)).toThrow(/EXPIRED/);
    const page = await fetch(`${invoice.invoice_url}/pay`, { method: "POST", redirect: "manual" });
    expect(page.status).toBe(400);
  });

  it("expires by itself after invoice_duration", async () => {
    const invoice = await api.create("/v2/invoices", invoiceBody({ invoice_duration: 1 }));
    await expect.poll(async () => (await api.get(`/v2/invoices/${invoice.id}`)).body.status, { timeout: 5_000 }).toBe("EXPIRED");
  });

  it("the controls pay, expire and settle over HTTP", async () => {
    const control = async (path: string, body?: unknown) =>
      (await fetch(`${sim.url}/__simulator/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) })).json() as Promise<any>;
    const paid = await api.create("/v2/invoices", invoiceBody());
    expect((await control(`invoices/${paid.id}/pay`, { channel_code: "GRABPAY" })).data.paymentId).toEqual(expect.any(String));
    expect((await control(`invoices/${paid.id}/settle`)).data.status).toBe("SETTLED");
    const expired = await api.create("/v2/invoices", invoiceBody());
    expect((await control(`invoices/${expired.id}/expire`)).data.status).toBe("EXPIRED");
  });
});

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { chromiumReady, launchBrowser, skipReason, type TestBrowser } from "../test-support/browser.js";

/**
 * The sandbox's hosted checkout, payment link and invoice pages and its QR Ph images are opened
 * by payers' browsers from URLs the merchant hands out: they must be safe to open whatever the
 * merchant's consumer typed into the fields they show.
 */

const script = "<script>alert(1)</script>";
const attributeBreak = '"><img src=x onerror=alert(1)>';

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

async function created(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api.request("POST", path, { body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

const newCheckout = (referenceId = unique("hosted")) =>
  created("/api/v1/payments/checkouts", {
    referenceId,
    amount: { amountMinor: 350_00, currency: "PHP" },
    successUrl: "https://shop.example.ph/thanks",
    cancelUrl: "https://shop.example.ph/cart",
  });

const newLink = (description = "Catering deposit", remarks = "Due Friday") =>
  created("/api/v1/payments/payment-links", { referenceId: unique("hosted"), amount: { amountMinor: 1500_00, currency: "PHP" }, description, remarks });

async function newInvoiceUrl(planName = "Gold membership"): Promise<string> {
  const plan = await created("/api/v1/payments/plans", { name: planName, amount: 499_00, interval: "monthly" });
  const customer = await created("/api/v1/payments/customers", { customerReference: unique("hosted"), email: "member@example.ph" });
  const subscription = await created("/api/v1/payments/subscriptions", {
    customerId: customer.customerId,
    referenceId: unique("hosted"),
    priceId: plan.planId,
  });
  const invoices = await api.request("GET", `/api/v1/payments/subscriptions/${subscription.subscriptionId}/invoices`);
  return invoices.body.data[0].hostedInvoiceUrl as string;
}

async function newQrImageUrl(): Promise<string> {
  const qr = await created("/api/v1/payments/intents/qrph", {
    referenceId: unique("hosted"),
    amount: { amountMinor: 250_00, currency: "PHP" },
    description: "Two iced coffees",
  });
  return qr.qrCodeImageUrl as string;
}

/** The URL with its page token replaced: a page that does not exist for the caller. */
const wrongToken = (url: string) => {
  const wrong = new URL(url);
  wrong.searchParams.set("token", "not-the-token");
  return wrong.toString();
};

/** A CSP's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The headers every answer of the sandbox carries to a payer's browser. */
function expectSafeHeaders(response: Response): Map<string, string[]> {
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  expect(response.headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(response.headers.get("X-Frame-Options")).toBe("DENY");
  const policy = response.headers.get("Content-Security-Policy") ?? "";
  expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*/);
  const parsed = directives(policy);
  expect(parsed.get("default-src")).toEqual(["'none'"]);
  expect(parsed.get("frame-ancestors")).toEqual(["'none'"]);
  return parsed;
}

/** A page's headers, and that its policy allows its own styles and nothing inline besides. */
async function expectSafePage(response: Response, status = 200): Promise<string> {
  const html = await response.text();
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
  const policy = expectSafeHeaders(response);
  expect(policy.get("form-action")).toEqual(["'self'"]);
  expect(policy.get("base-uri")).toEqual(["'none'"]);
  // Every inline <style> is allowed by its hash; there is nothing else inline to allow.
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
  expect(styles.length).toBeGreaterThan(0);
  for (const css of styles) {
    expect(policy.get("style-src")).toContain(`'sha256-${createHash("sha256").update(css).digest("base64")}'`);
  }
  // No script, and no attribute that styles or runs anything, in any tag (escaped text has no tags).
  const tags = html.match(/<[^>]*>/g) ?? [];
  expect(tags.filter((tag) => /^<script|\sstyle=|\son[a-z]+=/i.test(tag))).toEqual([]);
  return html;
}

describe("hosted pages' headers", () => {
  it("the checkout page: its page, the result of paying, and a page that does not exist", async () => {
    const checkout = await newCheckout();
    await expectSafePage(await fetch(checkout.checkoutUrl));
    await expectSafePage(await fetch(wrongToken(checkout.checkoutUrl)), 404);
    const url = new URL(checkout.checkoutUrl);
    const paid = await fetch(`${url.origin}${url.pathname}/pay${url.search}`, { method: "POST" });
    expect(await expectSafePage(paid)).toContain("Payment successful");
  });

  it("the payment link page", async () => {
    const link = await newLink();
    await expectSafePage(await fetch(link.url));
    await expectSafePage(await fetch(wrongToken(link.url)), 404);
  });

  it("the invoice page", async () => {
    const url = await newInvoiceUrl();
    await expectSafePage(await fetch(url));
    await expectSafePage(await fetch(wrongToken(url)), 404);
  });

  it("the QR Ph image, and its answer for a wrong token", async () => {
    const url = await newQrImageUrl();
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    expectSafeHeaders(image);
    const missing = await fetch(wrongToken(url));
    expect(missing.status).toBe(404);
    expectSafeHeaders(missing);
  });
});

describe("consumer-supplied fields on hosted pages", () => {
  /** The page shows `text` as text: escaped, never as markup. */
  function expectShownAsText(html: string, text: string): void {
    const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    expect(html).toContain(escaped);
    expect(html).not.toContain(text);
  }

  it("escapes a payment link's description and remarks", async () => {
    const link = await newLink(script, attributeBreak);
    const html = await expectSafePage(await fetch(link.url));
    expectShownAsText(html, script);
    expectShownAsText(html, attributeBreak);
    expect(html).not.toMatch(/<img/i);
  });

  it("escapes a checkout's reference", async () => {
    const checkout = await newCheckout(`order${attributeBreak}`);
    const html = await expectSafePage(await fetch(checkout.checkoutUrl));
    expectShownAsText(html, attributeBreak);
    expect(html).not.toMatch(/<img/i);
  });

  it("escapes the plan's name on an invoice page", async () => {
    const html = await expectSafePage(await fetch(await newInvoiceUrl(`Gold ${script}`)));
    expectShownAsText(html, script);
  });
});

describe.skipIf(!chromiumReady("the hosted pages' browser test"))(`hosted pages in a real browser (${skipReason})`, () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("shows a hostile description as text: nothing runs, the page keeps its styles, and the policy blocks nothing of its own", async () => {
    const link = await newLink(script, attributeBreak);
    const seen = await browser.withPage(async (page) => {
      const dialogs: string[] = [];
      const violations: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      const opened = await page.goto(link.url);
      expect(opened?.status()).toBe(200);
      return {
        dialogs,
        violations,
        heading: await page.locator("h1").textContent(),
        images: await page.locator("img").count(),
        banner: await page.locator(".banner").evaluate((element) => getComputedStyle(element).backgroundColor),
        payForm: await page.locator("form.payer").first().evaluate((element) => getComputedStyle(element).display),
      };
    });
    expect(seen).toEqual({
      dialogs: [],
      violations: [],
      heading: script,
      images: 0,
      banner: "rgb(255, 243, 205)",
      payForm: "inline",
    });
  }, 30_000);
});

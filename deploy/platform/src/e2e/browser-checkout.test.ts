import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../test-support/harness.js";

// Debian's Chromium, not a Playwright-downloaded build: CI installs it with apt (.ci/run), and
// CHROMIUM_PATH (passed through by turbo) points elsewhere when needed.
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = fs.existsSync(executablePath);
const results = fileURLToPath(new URL("../../test-results/", import.meta.url));
const checkouts = "/api/v1/payments/checkouts";

if (!available) console.info(`Skipping the browser checkout tests: ${executablePath} does not exist (apt-get install chromium).`);

describe.skipIf(!available)(`hosted checkout in a real browser (needs ${executablePath}: apt-get install chromium)`, () => {
  let api: TestPlatform;
  let browser: BrowserContext;
  let userDataDir: string;
  let counter = 0;

  beforeAll(async () => {
    api = await startTestPlatform();
    // A fresh profile per run, so nothing from a previous run or the machine's user leaks in.
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bayad-chromium-"));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // Below the test timeout, so a missing element fails with Playwright's message, not vitest's.
    browser.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
    await api?.close();
  });

  async function createCheckout(amountMinor: number) {
    counter += 1;
    const created = await api.request("POST", checkouts, {
      body: {
        referenceId: `browser-${Date.now()}-${counter}`,
        amount: { amountMinor, currency: "PHP" },
        successUrl: "https://shop.example.ph/thanks",
        cancelUrl: "https://shop.example.ph/cart",
      },
    });
    expect(created.status).toBe(201);
    return created.body.data as { checkoutId: string; checkoutUrl: string };
  }

  /** Opens the hosted page, checks the amount it shows, presses Pay and waits for the result page. */
  async function payInBrowser(page: Page, checkoutUrl: string, amountText: string, screenshot?: string) {
    const opened = await page.goto(checkoutUrl);
    expect(opened?.status()).toBe(200);
    expect(await page.locator(".amount").textContent()).toBe(amountText);
    expect(await page.locator("#pay").textContent()).toBe(`Pay ${amountText}`);
    if (screenshot) {
      fs.mkdirSync(results, { recursive: true });
      await page.screenshot({ path: path.join(results, screenshot), fullPage: true });
    }
    await page.locator("#pay").click();
    await page.locator("#result").waitFor();
    return {
      result: await page.locator("#result").textContent(),
      status: await page.locator("#status").textContent(),
    };
  }

  it("pays a checkout on the hosted page, and the API reads it paid", async () => {
    const checkout = await createCheckout(2500_00);
    const page = await browser.newPage();
    try {
      const outcome = await payInBrowser(page, checkout.checkoutUrl, "₱2,500.00", "checkout-page.png");
      expect(outcome).toEqual({ result: "Payment successful", status: "paid" });
    } finally {
      await page.close();
    }
    const read = await api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("paid");
  }, 30_000);

  it("decline: paying a 1002-centavo checkout on the hosted page fails it", async () => {
    const checkout = await createCheckout(1002);
    const page = await browser.newPage();
    try {
      const outcome = await payInBrowser(page, checkout.checkoutUrl, "₱10.02");
      expect(outcome).toEqual({ result: "Payment failed", status: "failed" });
    } finally {
      await page.close();
    }
    const read = await api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("failed");
  }, 30_000);
});

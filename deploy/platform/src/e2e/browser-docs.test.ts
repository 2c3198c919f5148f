import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

/** What the page did besides rendering: every request's URL, and what its CSP refused. */
interface PageTraffic {
  requests: string[];
  /** Content-Security-Policy violations written to the console. */
  consoleViolations: string[];
  /** Every `securitypolicyviolation` event, as "<directive> blocked <what>". */
  blocked: string[];
}

/** Records the page's requests and Content-Security-Policy violations, from before its first script. */
async function watch(page: Page): Promise<PageTraffic> {
  const traffic: PageTraffic = { requests: [], consoleViolations: [], blocked: [] };
  page.on("request", (request) => traffic.requests.push(request.url()));
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) traffic.consoleViolations.push(message.text());
  });
  // The browser's own report, also of what never reaches the console (a refused eval).
  await page.exposeFunction("reportViolation", (text: string) => traffic.blocked.push(text));
  // A script string: it runs in the page, which Node's types do not describe.
  await page.addInitScript(
    `document.addEventListener("securitypolicyviolation", (event) => reportViolation(event.violatedDirective + " blocked " + event.blockedURI));`,
  );
  return traffic;
}

/** The lines of text a part of the page shows, without the zero-width breaks the renderer puts in names. */
async function linesOf(part: Locator): Promise<string[]> {
  return (await part.innerText()).split("\n").map((line) => line.replace(/[\u200b\u00ad]/g, "").trim());
}

describe.skipIf(!chromiumReady("the API docs browser test"))(`API docs at /docs in a real browser (${skipReason})`, () => {
  const suite = browserSuite();

  it("shows createCheckout's request body fields, its response schema and examples, and the checkout.paid webhook, fetching only from the gateway", async () => {
    const gateway = new URL(suite.api.platform.gatewayUrl).origin;
    await suite.browser.withPage(async (page) => {
      const traffic = await watch(page);
      const opened = await page.goto(`${gateway}/docs`);
      expect(opened?.status()).toBe(200);

      // An operation: its request body's fields, its responses, the document's example.
      const operation = page.locator("section", { has: page.getByRole("heading", { name: "Create a checkout", exact: true }) });
      await operation.waitFor();
      await expect.poll(() => linesOf(operation)).toEqual(expect.arrayContaining(["referenceId", "amount", "successUrl", "cancelUrl", "Responses"]));
      expect(await operation.getByText("order-1001").first().isVisible()).toBe(true);

      // The 201 response opens on its schema: the envelope, whose data is the Checkout.
      const created = operation.getByRole("button", { name: /^201\b/ });
      await created.click();
      const createdSchema = page.locator(`[id="${await created.getAttribute("aria-controls")}"]`);
      await expect.poll(() => linesOf(createdSchema)).toEqual(expect.arrayContaining(["success", "data"]));
      expect(await createdSchema.getByText("Checkout").first().isVisible()).toBe(true);

      // A webhook from the document's `webhooks`: what Bayad POSTs for checkout.paid, its headers and body.
      await page.getByText("A checkout was paid", { exact: true }).first().click();
      const webhook = page.locator("section", { has: page.getByRole("heading", { name: "A checkout was paid" }) });
      await webhook.waitFor();
      await expect
        .poll(() => linesOf(webhook))
        .toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature", "id", "type", "createdAt", "environment", "data"]));
      expect(await webhook.getByText("checkout.paid", { exact: true }).first().isVisible()).toBe(true);

      fs.mkdirSync(results, { recursive: true });
      await page.screenshot({ path: path.join(results, "docs-webhook.png") });

      expect(traffic.consoleViolations).toEqual([]);
      // The one refusal allowed: the bundle's schema library (zod) tries `new Function("")` once,
      // inside a try, to learn whether it may compile validators; the policy says no, as meant, and it
      // validates without eval. Nothing else (no script, style, font, image or fetch) is refused.
      expect(traffic.blocked.filter((text) => text !== "script-src blocked eval")).toEqual([]);
      const elsewhere = traffic.requests.filter((url) => !url.startsWith("data:") && new URL(url).origin !== gateway);
      expect(elsewhere).toEqual([]);
      // The renderer came from the gateway itself, and read the document there.
      expect(traffic.requests).toEqual(expect.arrayContaining([`${gateway}/openapi.json`]));
      expect(traffic.requests.some((url) => url.startsWith(`${gateway}/docs/assets/`))).toBe(true);
    });
  }, 60_000);
});

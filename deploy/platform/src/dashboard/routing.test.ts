import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { chromiumReady, launchBrowser, skipReason, type TestBrowser } from "../test-support/browser.js";
import { openDashboardPath, signIn } from "../test-support/dashboard.js";
import { twoProvidersSuite } from "../test-support/two-providers.js";

/**
 * The project page's provider routing in Chromium, against a platform pointed at the PayMongo and
 * Xendit simulators and a project holding a live account at each: the default routing shown
 * (PayMongo, the oldest, takes everything), weights 70/30 with a reorder, a method and an amount
 * bound saved with the version read (the API then answers that routing), a bad edit refused by the
 * API with its details shown by route, and a save after someone else's refused as changed meanwhile.
 */

/** The cells of a table's body rows, as text. */
async function rows(table: Locator): Promise<string[][]> {
  return table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
}

describe.skipIf(!chromiumReady("the dashboard routing tests"))(`dashboard: provider routing in Chromium (${skipReason})`, () => {
  const suite = twoProvidersSuite({ project: "Dashboard routing" });
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("shows the default routing, saves 70/30, and shows the API's refusals", async () => {
    const { projectId } = suite.project;
    const { paymongo, xendit } = suite.accounts;
    const routingPath = `/admin/v1/projects/${projectId}/provider-routing/live`;
    const base = suite.api.platform.gatewayUrl;

    await browser.withPage(async (page) => {
      await signIn(page, base, suite.api.platform.adminApiKey);
      await openDashboardPath(page, base, `/projects/${projectId}`);
      const live = page.getByRole("region", { name: "Live routing" });
      const table = live.getByRole("table", { name: "Live routes" });

      // None stored: the default, the accounts oldest first, PayMongo (put first) taking everything.
      await live.getByText("default", { exact: true }).waitFor();
      await table.getByText(paymongo.providerAccountId, { exact: true }).waitFor();
      const shown = await rows(table);
      expect(shown).toHaveLength(2);
      expect(shown[0]).toEqual(["1", expect.stringContaining(paymongo.providerAccountId), "every method", "any amount", "100", "100%"]);
      expect(shown[0][1]).toContain(`PayMongo sk_live_…${paymongo.secretKey.slice(-4)}`);
      expect(shown[1]).toEqual(["2", expect.stringContaining(xendit.providerAccountId), "every method", "any amount", "0", "0% (failover only)"]);
      expect(shown[1][1]).toContain("Xendit");
      // The test environment has no account: nothing to route.
      await page.getByRole("region", { name: "Test routing" }).getByText("No provider account to route test payments to").waitFor();

      // Weights 70/30, Xendit first, taking GCash only up to ₱50,000.50; saved with version 0.
      await live.getByRole("button", { name: "Edit routing" }).click();
      const form = live.getByRole("form", { name: "Edit the live routing" });
      await form.getByRole("group", { name: "Route 1: PayMongo" }).getByLabel("Weight").fill("70");
      const xenditRoute = form.getByRole("group", { name: "Route 2: Xendit" });
      await xenditRoute.getByLabel("Weight").fill("30");
      await xenditRoute.getByText("Share 30%").waitFor();
      await xenditRoute.getByLabel("GCash").check();
      await xenditRoute.getByLabel("Maximum amount in pesos").fill("50,000.50");
      await xenditRoute.getByRole("button", { name: "Move route 2 up" }).click();
      await form.getByRole("group", { name: "Route 1: Xendit" }).waitFor();
      await form.getByRole("button", { name: "Save live routing" }).click();
      await live.getByRole("status").filter({ hasText: "Routing saved (version 1)." }).waitFor();

      const saved = (await suite.api.admin("GET", routingPath)).body.data;
      expect(saved).toMatchObject({ default: false, version: 1 });
      expect(saved.routes).toEqual([
        { providerAccountId: xendit.providerAccountId, methods: ["gcash"], maxAmount: { amountMinor: 5_000_050, currency: "PHP" }, weight: 30 },
        { providerAccountId: paymongo.providerAccountId, weight: 70 },
      ]);
      await live.getByText("default", { exact: true }).waitFor({ state: "detached" });
      const after = await rows(table);
      expect(after.map((cells) => cells.slice(2))).toEqual([
        ["GCash", "up to ₱50,000.50", "30", "30%"],
        ["every method", "any amount", "70", "70%"],
      ]);

      // A bad edit: every weight 0, and Xendit's minimum above its maximum. The API refuses it,
      // its details shown (the route's beside it), and nothing changes.
      await live.getByRole("button", { name: "Edit routing" }).click();
      await form.getByRole("group", { name: "Route 1: Xendit" }).getByLabel("Weight").fill("0");
      await form.getByRole("group", { name: "Route 1: Xendit" }).getByLabel("Minimum amount in pesos").fill("60000");
      await form.getByRole("group", { name: "Route 2: PayMongo" }).getByLabel("Weight").fill("0");
      await form.getByRole("button", { name: "Save live routing" }).click();
      const refusal = form.getByRole("alert");
      await refusal.getByText("VALIDATION_FAILED").waitFor();
      await refusal.getByText("routes: at least one route needs a weight above 0").waitFor();
      await form
        .getByRole("group", { name: "Route 1: Xendit" })
        .getByRole("list", { name: "Problems with route 1" })
        .getByText("routes[0].maxAmount.amountMinor: must not be below minAmount")
        .waitFor();
      expect((await suite.api.admin("GET", routingPath)).body.data).toMatchObject({ version: 1, routes: saved.routes });

      // Someone saves meanwhile (version 2): this form's save (version 1) is refused as changed
      // meanwhile, and Reload shows theirs.
      const elsewhere = await suite.api.admin("PUT", routingPath, {
        routes: [
          { providerAccountId: paymongo.providerAccountId, weight: 500 },
          { providerAccountId: xendit.providerAccountId, weight: 500 },
        ],
        version: 1,
      });
      expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(200);
      await form.getByRole("group", { name: "Route 1: Xendit" }).getByLabel("Weight").fill("30");
      await form.getByRole("group", { name: "Route 1: Xendit" }).getByLabel("Minimum amount in pesos").fill("");
      await form.getByRole("button", { name: "Save live routing" }).click();
      await form.getByRole("alert").getByText("CONCURRENT_MODIFICATION").waitFor();
      await form.getByText("The routing was changed meanwhile").waitFor();
      await form.getByRole("button", { name: "Reload routing" }).click();
      await expect.poll(() => form.getByRole("group", { name: "Route 1: PayMongo" }).getByLabel("Weight").inputValue()).toBe("500");
      await form.getByRole("alert").waitFor({ state: "detached" });
      expect((await suite.api.admin("GET", routingPath)).body.data).toMatchObject({ version: 2 });
    });
  }, 90_000);
});

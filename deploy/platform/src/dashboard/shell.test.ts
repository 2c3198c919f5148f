import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseEnvironment, chooseProject, openDashboardPath, sessionCookie, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's frame in Chromium: the test/live switch and its LIVE band, the menu (test-mode
 * pages only in test mode; a menu button at phone width, where nothing overflows the page), a
 * session lost elsewhere, the payments list's filters in the URL and its paging, a page that
 * does not exist.
 */

describe.skipIf(!chromiumReady("the dashboard shell tests"))(`dashboard: the shell in Chromium (${skipReason})`, () => {
  const suite = browserSuite();
  let project: { projectId: string; testKey: string; liveKey: string };
  let checkoutIds: string[];

  beforeAll(async () => {
    project = await suite.api.newProject(unique("Dashboard shell"));
    // One more than a page of the payments list (50).
    checkoutIds = [];
    for (let index = 0; index < 51; index++) {
      const created = await suite.api.request("POST", "/api/v1/payments/checkouts", {
        credential: project.testKey,
        body: { referenceId: unique("shell"), amount: { amountMinor: 100_00 + index, currency: "PHP" }, successUrl: "https://shop.example.ph/ok", cancelUrl: "https://shop.example.ph/no" },
      });
      expect(created.status).toBe(201);
      checkoutIds.push(created.body.data.checkoutId as string);
    }
    await eventually(async () => {
      const page = await suite.api.request("GET", "/api/v1/payments/records?limit=200", { credential: project.testKey });
      return page.body.data.records.length === 51 ? true : undefined;
    });
  }, 60_000);


  const menu = (page: Page) => page.getByRole("navigation", { name: "Main" });

  it("marks live mode with a LIVE band, and lists test-mode-only pages only in test mode", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await chooseEnvironment(page, "test");
      await menu(page).getByRole("link", { name: "Dev outbox" }).waitFor();
      expect(await page.getByText("LIVE — real payments and real money").count()).toBe(0);

      await chooseEnvironment(page, "live");
      await page.getByText("LIVE — real payments and real money").waitFor();
      expect(await menu(page).getByRole("link", { name: "Dev outbox" }).count()).toBe(0);
      await menu(page).getByRole("link", { name: "Payments" }).click();
      await page.getByText("No payments in live mode yet.").waitFor();

      await chooseEnvironment(page, "test");
      await page.getByRole("row").filter({ hasText: checkoutIds[50] }).waitFor();
      expect(await page.getByText("LIVE — real payments and real money").count()).toBe(0);
    });
  });

  it("pages through the records with Next and Previous, and keeps the filters in the URL", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await chooseEnvironment(page, "test");
      await openDashboardPath(page, suite.base, "/payments");
      const table = page.getByRole("table", { name: "Payment records" });
      // Newest first: the last created leads the first page, the first created is alone on the second.
      await table.getByRole("row").filter({ hasText: checkoutIds[50] }).waitFor();
      expect(await table.getByRole("row").count()).toBe(51);
      await page.getByRole("button", { name: "Next" }).click();
      await table.getByRole("row").filter({ hasText: checkoutIds[0] }).waitFor();
      expect(await table.getByRole("row").count()).toBe(2);
      expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
      await page.getByRole("button", { name: "Previous" }).click();
      await table.getByRole("row").filter({ hasText: checkoutIds[50] }).waitFor();

      await page.getByLabel("Type", { exact: true }).selectOption("refund");
      await page.getByText("No records match these filters.").waitFor();
      expect(new URL(page.url()).searchParams.get("type")).toBe("refund");
      await page.getByLabel("Type", { exact: true }).selectOption("checkout");
      await page.getByLabel("Created from").fill("2000-01-01");
      await page.getByLabel("Created to").fill("2000-01-31");
      await page.getByText("No records match these filters.").waitFor();

      // The link reproduces the view.
      const link = page.url();
      expect(Object.fromEntries(new URL(link).searchParams)).toEqual({ type: "checkout", from: "2000-01-01", to: "2000-01-31" });
      await page.goto(link);
      await page.getByText("No records match these filters.").waitFor();
      expect(await page.getByLabel("Created from").inputValue()).toBe("2000-01-01");
      await page.getByRole("link", { name: "Clear all filters" }).click();
      await table.getByRole("row").filter({ hasText: checkoutIds[50] }).waitFor();

      // An id in the search box opens its page.
      await page.getByLabel("Reference or id").fill(checkoutIds[7]);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/${checkoutIds[7]}`);
    });
  });

  it("opens a payment from the list with the keyboard: ArrowDown moves between rows, Enter opens; Enter on Copy only copies", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, "/payments");
      const rows = page.getByRole("table", { name: "Payment records" }).getByRole("row");
      await rows.filter({ hasText: checkoutIds[50] }).waitFor();
      await rows.nth(1).getByRole("button", { name: `Copy id ${checkoutIds[50]}` }).press("Enter");
      expect(new URL(page.url()).pathname).toBe("/dashboard/payments");
      await rows.nth(1).focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/${checkoutIds[49]}`);
    });
  });

  it("fits a 390-pixel-wide phone: a menu button opens the menu, and no page scrolls sideways (nor breaks the CSP)", async () => {
    await suite.browser.withPage(async (page) => {
      // The chart and every page run under the gateway's CSP (no inline style or script).
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);

      await page.getByRole("heading", { name: "Overview" }).waitFor();
      await page.getByRole("table", { name: "Totals by environment" }).waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(390);
      expect(await menu(page).getByRole("link", { name: "Payments" }).isVisible()).toBe(false);
      await page.getByRole("button", { name: "Menu" }).click();
      await menu(page).getByRole("link", { name: "Payments" }).click();
      await page.getByRole("table", { name: "Payment records" }).waitFor();
      expect(await menu(page).getByRole("link", { name: "Payments" }).isVisible()).toBe(false);
      expect(await pageWidth()).toBeLessThanOrEqual(390);

      await openDashboardPath(page, suite.base, `/payments/${checkoutIds[3]}`);
      await page.getByRole("region", { name: "Details" }).waitFor();
      await page.getByRole("list", { name: "Timeline" }).waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
    });
  });

  it("says a page does not exist", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await openDashboardPath(page, suite.base, "/no/such/page");
      await page.getByText("There is no page here.").waitFor();
    });
  });

  it("returns to sign-in with a message when the session ends elsewhere", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      // The session ends on the server (signed out in another tab).
      const cookie = await sessionCookie(suite.browser.context, suite.base);
      const header = { Cookie: `${cookie?.name}=${cookie?.value}` };
      const session = (await (await fetch(`${suite.base}/dashboard/api/session`, { headers: header })).json()) as { data: { csrfToken: string } };
      const ended = await fetch(`${suite.base}/dashboard/api/session`, { method: "DELETE", headers: { ...header, "X-CSRF-Token": session.data.csrfToken } });
      expect(ended.status).toBe(204);

      await menu(page).getByRole("link", { name: "Payments" }).click();
      await page.getByRole("status").filter({ hasText: "Your session has ended" }).waitFor();
      await page.getByLabel("Admin key", { exact: true }).waitFor();
    });
  });
});

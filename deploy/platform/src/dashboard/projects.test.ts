import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBase62 } from "@bayad/kit";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { openDashboardPath, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's projects and keys pages in Chromium, against a started platform: a project
 * created from the page, a test key issued and shown once (it works against the API), revoked
 * after a confirm (the API refuses it from then on), and listed as revoked; a PayMongo account
 * connected from the page (the PayMongo simulator standing in) shown with its webhook.
 */

describe.skipIf(!chromiumReady("the dashboard projects tests"))(`dashboard: projects and keys in Chromium (${skipReason})`, () => {
  let simulator: PaymongoSimulator;

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
  }, 60_000);
  const suite = browserSuite(() => ({ PAYMONGO_API_BASE: simulator.url }));

  afterAll(async () => {
    await simulator?.close();
  });

  it("creates a project, issues a test key shown once, and revokes it", async () => {
    const name = unique("Dashboard shop");
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await openDashboardPath(page, suite.base, "/projects");
      await page.getByRole("heading", { name: "Projects & keys" }).waitFor();

      // Create the project; the page offers to switch to it.
      await page.getByLabel("Project name").fill(name);
      await page.getByRole("button", { name: "Create project" }).click();
      const created = page.getByRole("status").filter({ hasText: `Project ${name}` });
      await created.waitFor();
      const projectId = (await created.locator("code").first().textContent()) ?? "";
      expect(projectId).toMatch(/^prj_/);
      const listed = await suite.api.admin("GET", "/admin/v1/projects?limit=200");
      expect(listed.body.data.projects).toContainEqual(expect.objectContaining({ projectId, name }));
      await page.getByRole("table", { name: "Projects" }).getByRole("row").filter({ hasText: projectId }).waitFor();

      await created.getByRole("link", { name: "Issue it an API key" }).click();
      await page.getByRole("heading", { name }).waitFor();
      // No provider account yet: the page says how to connect one.
      await page.getByRole("region", { name: "Test provider account" }).getByText("No provider account in test mode").waitFor();

      // Issue a test key: its secret is shown once, with a Copy button and a warning.
      await page.getByRole("combobox", { name: /^Environment/ }).selectOption("test");
      await page.getByRole("button", { name: "Issue key" }).click();
      const dialog = page.getByRole("dialog", { name: "New test API key" });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain("you won't see it again");
      await dialog.getByRole("button", { name: "Copy key" }).waitFor();
      const secret = (await dialog.getByLabel("API key secret").textContent()) ?? "";
      expect(secret).toMatch(/^sk_test_[A-Za-z0-9]+$/);

      // It works against the API.
      const withKey = await suite.api.request("GET", "/api/v1/payments/records?limit=1", { credential: secret });
      expect(withKey.status).toBe(200);

      // Dismissed, it is gone from the page, and the browser never stored it.
      await dialog.getByRole("button", { name: "Done, I have copied it" }).click();
      await dialog.waitFor({ state: "detached" });
      expect(await page.content()).not.toContain(secret);
      const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie }));
      expect(stored).not.toContain(secret);

      // The list shows the key by its prefix and last 4, active; revoke asks first.
      const keys = page.getByRole("table", { name: "API keys" });
      const row = keys.getByRole("row").filter({ hasText: `${secret.slice(0, 12)}…${secret.slice(-4)}` });
      await row.filter({ hasText: "Active" }).waitFor();
      const keyId = (await suite.api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`)).body.data[0].keyId as string;
      await row.getByRole("button", { name: `Revoke ${keyId}` }).click();
      await row.getByRole("button", { name: "Yes, revoke" }).click();
      await row.filter({ hasText: "Revoked" }).waitFor();
      expect(await row.getByRole("button", { name: `Revoke ${keyId}` }).count()).toBe(0);

      // The API refuses the revoked key.
      const refused = await eventually(async () => {
        const answer = await suite.api.request("GET", "/api/v1/payments/records?limit=1", { credential: secret });
        return answer.status === 401 ? answer : undefined;
      });
      expect(refused.body.error.code).toBe("INVALID_CREDENTIALS");
      const summaries = (await suite.api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`)).body.data as Array<{ keyId: string; revokedAt?: string }>;
      expect(summaries.find((summary) => summary.keyId === keyId)?.revokedAt).toBeDefined();

      // Still listed as revoked after a reload.
      await page.reload();
      await page.getByRole("table", { name: "API keys" }).getByRole("row").filter({ hasText: keyId }).filter({ hasText: "Revoked" }).waitFor();
    });
  }, 60_000);

  it("connects a test PayMongo account from the page and shows it with its webhook, never the key", async () => {
    const project = await suite.api.newProject(unique("Dashboard provider"));
    const secretKey = `sk_test_${randomBase62(24)}`;
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await openDashboardPath(page, suite.base, `/projects/${project.projectId}`);
      const test = page.getByRole("region", { name: "Test provider account" });
      await test.getByText("No provider account in test mode").waitFor();
      await test.getByText("Connect a provider account").click();
      await test.getByLabel("PayMongo secret key (sk_test_…)").fill(secretKey);
      await test.getByLabel("Payment methods (PayMongo codes, comma-separated)").fill("qrph, gcash");
      await test.getByRole("button", { name: "Connect account" }).click();

      const fields = test.getByLabel("Test PayMongo account", { exact: true });
      await fields.getByText(`sk_test_…${secretKey.slice(-4)}`).waitFor();
      const account = (await suite.api.admin("GET", `/admin/v1/projects/${project.projectId}/provider-accounts/test`)).body.data as {
        providerAccountId: string;
        status: string;
        webhook: { url: string; status: string };
      };
      await fields.getByText("qrph, gcash").waitFor();
      // Active: PayMongo takes its key (a refused key would show paused, and when it is tried again).
      expect(account.status).toBe("active");
      await fields.getByText("active", { exact: true }).waitFor();
      await fields.getByText(account.webhook.url).waitFor();
      await fields.getByText(account.webhook.status, { exact: true }).waitFor();
      await fields.getByText(account.providerAccountId, { exact: true }).waitFor();
      expect(account.webhook.url).toContain(`/provider-webhooks/paymongo/${account.providerAccountId}`);
      expect(await page.content()).not.toContain(secretKey);
      // The live account is still absent, and says what that means.
      await page.getByRole("region", { name: "Live provider account" }).getByText("No provider account in live mode").waitFor();
    });
  }, 60_000);
});

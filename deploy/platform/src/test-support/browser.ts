import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { prerequisiteMet, startTestPlatform, type TestPlatform } from "./harness.js";

// Debian's Chromium, not a Playwright-downloaded build: CI installs it with apt (.ci/run), and
// CHROMIUM_PATH (passed through by turbo) points elsewhere when needed.
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const skipReason = `needs ${chromiumPath}: apt-get install chromium`;

/** Whether a browser suite can run here: skipped with a note without Chromium, failed in CI. */
export function chromiumReady(suite: string): boolean {
  return prerequisiteMet(suite, fs.existsSync(chromiumPath) ? undefined : `${chromiumPath} does not exist (apt-get install chromium)`);
}

const results = fileURLToPath(new URL("../../test-results/", import.meta.url));

export interface TestBrowser {
  context: BrowserContext;
  /** Runs `work` on a new page, and closes the page whatever happens. */
  withPage<T>(work: (page: Page) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile, so nothing from a previous run or the machine leaks in. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bayad-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
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
  context.setDefaultTimeout(15_000);
  return {
    context,
    async withPage(work) {
      const page = await context.newPage();
      try {
        return await work(page);
      } finally {
        await page.close();
      }
    },
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a sandbox hosted page, checks the amount it shows, presses Pay and waits for the result
 * page; a screenshot of the page before paying lands in test-results/ when asked for.
 */
export async function payInBrowser(page: Page, url: string, amountText: string, screenshot?: string) {
  const opened = await page.goto(url);
  if (opened?.status() !== 200) throw new Error(`${url} answered ${opened?.status()}`);
  const shown = { amount: await page.locator(".amount").textContent(), button: await page.locator("#pay").textContent() };
  if (shown.amount !== amountText || shown.button !== `Pay ${amountText}`) {
    throw new Error(`the page shows ${JSON.stringify(shown)}, not ${amountText}`);
  }
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

/**
 * A browser suite's started platform and Chromium: made before the suite's tests (after the hooks
 * registered before this call, so `env` may name what they started) and closed after them.
 */
export function browserSuite(env: () => Record<string, string> = () => ({})) {
  const suite = {} as { api: TestPlatform; browser: TestBrowser; base: string };
  beforeAll(async () => {
    suite.api = await startTestPlatform(env());
    suite.browser = await launchBrowser();
    suite.base = suite.api.platform.gatewayUrl;
  }, 60_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.api?.close();
  });
  return suite;
}

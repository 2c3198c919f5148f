import type { BrowserContext, Page } from "playwright-core";

/**
 * Driving the dashboard (gateway/dashboard) in a test browser the way an operator does: by the
 * labels, roles and text on the page. Other suites may add helpers at the end of this file.
 */

/**
 * The session cookie's name for a gateway on plain-http loopback, where these browsers reach it
 * (gateway/src/dashboard/session-cookie.ts); anywhere else it is `__Host-bayad_dashboard_session`.
 */
export const sessionCookieName = "bayad_dashboard_session";

/** The dashboard's address for an app path ("/payments"). */
export function dashboardUrl(baseUrl: string, path = "/"): string {
  return `${baseUrl}/dashboard${path === "/" ? "/" : path}`;
}

/**
 * Opens the dashboard and, unless the browser already holds a session, signs in with the admin
 * key; waits until the signed-in header shows.
 */
export async function signIn(page: Page, baseUrl: string, adminKey: string): Promise<void> {
  await page.goto(dashboardUrl(baseUrl));
  const field = page.getByLabel("Admin key", { exact: true });
  const signOut = page.getByRole("button", { name: "Sign out" });
  await field.or(signOut).waitFor();
  if (await signOut.isVisible()) return;
  await field.fill(adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/** Chooses the project the pages show (the header's picker). */
export async function chooseProject(page: Page, projectId: string): Promise<void> {
  // The select sits in its label, so its name is "Project" and the chosen option's text.
  await page.getByRole("combobox", { name: /^Project\b/ }).selectOption(projectId);
}

/** Switches between test and live (the header's switch). */
export async function chooseEnvironment(page: Page, environment: "test" | "live"): Promise<void> {
  const button = page.getByRole("group", { name: "Environment" }).getByRole("button", { name: environment === "live" ? "Live" : "Test" });
  await button.click();
  await page.getByRole("group", { name: "Environment" }).getByRole("button", { name: environment === "live" ? "Live" : "Test", pressed: true }).waitFor();
}

/** Goes to an app path without reloading the app (a menu click would do the same). */
export async function openDashboardPath(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(dashboardUrl(baseUrl, path));
  await page.getByRole("button", { name: "Sign out" }).waitFor();
}

/** The browser's dashboard session cookie, if it holds one. */
export async function sessionCookie(context: BrowserContext, baseUrl: string) {
  const cookies = await context.cookies(baseUrl);
  return cookies.find((cookie) => cookie.name === sessionCookieName && cookie.value !== "");
}

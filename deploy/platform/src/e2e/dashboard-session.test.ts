import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * The dashboard's session: the admin key exchanged for an HttpOnly, SameSite=Strict cookie; the
 * cookie standing for the admin key on admin operations and, naming a project and environment,
 * on the project's operations; CSRF on every change; sign-out ending the session on the server.
 * And the same acting-for with the admin key itself, for operators using curl. Sessions end
 * with the admin key they were made with, and all at once with `bayad sessions revoke --all`.
 */

const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");

let api: TestPlatform;
let project: { projectId: string; testKey: string; liveKey: string };

beforeAll(async () => {
  api = await startTestPlatform();
  project = await api.newProject("Dashboard session");
});

afterAll(async () => {
  await api?.close();
});

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function call(method: string, path: string, options: { cookie?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${api.platform.gatewayUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML pages and empty bodies stay text.
  }
  return { status: response.status, headers: response.headers, body };
}

/** Signs in; the cookie as a browser would send it back, and the CSRF token. */
async function signIn(): Promise<{ cookie: string; csrfToken: string; setCookie: string }> {
  const reply = await call("POST", "/dashboard/api/session", { body: { adminKey: api.platform.adminApiKey } });
  expect(reply.status).toBe(201);
  const setCookie = reply.headers.get("Set-Cookie") ?? "";
  return { cookie: setCookie.split(";")[0] ?? "", csrfToken: reply.body.data.csrfToken as string, setCookie };
}

const checkoutBody = () => ({
  referenceId: unique("order"),
  amount: { amountMinor: 500_00, currency: "PHP" },
  successUrl: "https://shop.example.ph/ok",
  cancelUrl: "https://shop.example.ph/no",
});

describe("signing in", () => {
  it("refuses a wrong admin key with 401 and sets no cookie", async () => {
    const reply = await call("POST", "/dashboard/api/session", { body: { adminKey: "adm_not-the-key-at-all" } });
    expectError(reply as any, 401, "INVALID_CREDENTIALS");
    expect(reply.headers.get("Set-Cookie")).toBeNull();
  });

  it("asks for the admin key when none is given, naming the field", async () => {
    const reply = await call("POST", "/dashboard/api/session", { body: {} });
    expectError(reply as any, 400, "VALIDATION_FAILED");
    expect(reply.body.error.details.join(" ")).toContain("adminKey");
  });

  it("sets an HttpOnly, SameSite=Strict session cookie with an expiry, not Secure over plain http", async () => {
    const { setCookie, csrfToken } = await signIn();
    expect(setCookie).toMatch(/^bayad_dashboard_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toMatch(/Max-Age=(\d+)/);
    expect(Number(/Max-Age=(\d+)/.exec(setCookie)?.[1])).toBeGreaterThan(3600);
    expect(setCookie).not.toContain("Secure");
    // The admin key is nowhere in what the browser gets.
    expect(setCookie).not.toContain(api.platform.adminApiKey);
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("reports the session (CSRF token, expiry) to its cookie, and 401 without one", async () => {
    const { cookie, csrfToken } = await signIn();
    const reply = await call("GET", "/dashboard/api/session", { cookie });
    expect(reply.status).toBe(200);
    expect(reply.body.data.csrfToken).toBe(csrfToken);
    expect(new Date(reply.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expectError((await call("GET", "/dashboard/api/session")) as any, 401, "AUTHENTICATION_REQUIRED");
    expectError((await call("GET", "/dashboard/api/session", { cookie: "bayad_dashboard_session=forged" })) as any, 401, "AUTHENTICATION_REQUIRED");
  });
});

describe("the session cookie as a credential", () => {
  it("stands for the admin key on admin operations", async () => {
    const { cookie } = await signIn();
    const keys = await call("GET", `/admin/v1/projects/${project.projectId}/api-keys`, { cookie });
    expect(keys.status).toBe(200);
    expect(keys.body.data.length).toBeGreaterThanOrEqual(2);
    expectError((await call("GET", `/admin/v1/projects/${project.projectId}/api-keys`)) as any, 401, "AUTHENTICATION_REQUIRED");
  });

  it("acts for the project and environment it names, seeing what that project's key sees", async () => {
    const { cookie, csrfToken } = await signIn();
    const actingFor = { "Bayad-Project": project.projectId, "Bayad-Environment": "test" };
    const created = await call("POST", "/api/v1/payments/checkouts", {
      cookie,
      headers: { ...actingFor, "X-CSRF-Token": csrfToken, "Idempotency-Key": newIdempotencyKey() },
      body: checkoutBody(),
    });
    expect(created.status).toBe(201);
    const checkoutId = created.body.data.checkoutId as string;
    // The project's own test key sees it; its live key and another project do not.
    expect((await api.request("GET", `/api/v1/payments/checkouts/${checkoutId}`, { credential: project.testKey })).status).toBe(200);
    expect((await api.request("GET", `/api/v1/payments/checkouts/${checkoutId}`, { credential: project.liveKey })).status).toBe(404);
    const read = await call("GET", `/api/v1/payments/checkouts/${checkoutId}`, { cookie, headers: actingFor });
    expect(read.status).toBe(200);
    const live = await call("GET", `/api/v1/payments/checkouts/${checkoutId}`, { cookie, headers: { ...actingFor, "Bayad-Environment": "live" } });
    expectError(live as any, 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses a change without the session's CSRF token, and writes nothing", async () => {
    const { cookie } = await signIn();
    const actingFor = { "Bayad-Project": project.projectId, "Bayad-Environment": "test" };
    const body = checkoutBody();
    for (const token of [undefined, "not-the-token"]) {
      const reply = await call("POST", "/api/v1/payments/checkouts", {
        cookie,
        headers: { ...actingFor, "Idempotency-Key": newIdempotencyKey(), ...(token ? { "X-CSRF-Token": token } : {}) },
        body,
      });
      expectError(reply as any, 403, "CSRF_TOKEN_INVALID");
    }
    const byReference = await api.request("GET", `/api/v1/payments/checkouts/by-reference/${body.referenceId}`, { credential: project.testKey });
    expect(byReference.status).toBe(404);
    const newProject = await call("POST", "/admin/v1/projects", { cookie, body: { name: "Forged" } });
    expectError(newProject as any, 403, "CSRF_TOKEN_INVALID");
  });

  it("needs both acting-for headers on a project's operations, and a project that exists", async () => {
    const { cookie } = await signIn();
    const none = await call("GET", "/api/v1/payments/records", { cookie });
    expectError(none as any, 400, "VALIDATION_FAILED");
    expect(none.body.error.details.join(" ")).toContain("Bayad-Project");
    const badEnvironment = await call("GET", "/api/v1/payments/records", { cookie, headers: { "Bayad-Project": project.projectId, "Bayad-Environment": "prod" } });
    expectError(badEnvironment as any, 400, "VALIDATION_FAILED");
    expect(badEnvironment.body.error.details.join(" ")).toContain("Bayad-Environment");
    const unknown = await call("GET", "/api/v1/payments/records", { cookie, headers: { "Bayad-Project": "prj_doesnotexist", "Bayad-Environment": "test" } });
    expectError(unknown as any, 404, "RESOURCE_NOT_FOUND");
  });

  it("lets the admin key act for a project too, but not a project's API key", async () => {
    const actingFor = { "Bayad-Project": project.projectId, "Bayad-Environment": "test" };
    const asAdmin = await call("GET", "/api/v1/payments/records", { headers: { ...actingFor, Authorization: `Bearer ${api.platform.adminApiKey}` } });
    expect(asAdmin.status).toBe(200);
    const other = await api.newProject("Someone else");
    const asOtherKey = await call("GET", "/api/v1/payments/records", { headers: { ...actingFor, Authorization: `Bearer ${other.testKey}` } });
    expectError(asOtherKey as any, 401, "INVALID_CREDENTIALS");
  });
});

describe("signing out", () => {
  it("needs the CSRF token, then ends the session on the server", async () => {
    const { cookie, csrfToken } = await signIn();
    expectError((await call("DELETE", "/dashboard/api/session", { cookie })) as any, 403, "CSRF_TOKEN_INVALID");
    expect((await call("GET", "/dashboard/api/session", { cookie })).status).toBe(200);

    const out = await call("DELETE", "/dashboard/api/session", { cookie, headers: { "X-CSRF-Token": csrfToken } });
    expect(out.status).toBe(204);
    expect(out.headers.get("Set-Cookie")).toMatch(/^bayad_dashboard_session=; .*Max-Age=0/);
    // The old cookie, replayed, no longer works anywhere.
    expectError((await call("GET", "/dashboard/api/session", { cookie })) as any, 401, "AUTHENTICATION_REQUIRED");
    expectError((await call("GET", `/admin/v1/projects/${project.projectId}/api-keys`, { cookie })) as any, 401, "AUTHENTICATION_REQUIRED");
    // Routes that need no credential do not care about a stale cookie.
    expect((await call("GET", "/healthz", { cookie })).status).toBe(200);
  });
});

describe("the dashboard's pages", () => {
  it("serves the app at /dashboard/ under a strict Content-Security-Policy, with nothing inline", async () => {
    const page = await call("GET", "/dashboard/");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toContain("text/html");
    const policy = page.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-eval");
    const html = page.body as string;
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [tag, content] of scripts) {
      expect(tag).toMatch(/src="\/dashboard\/assets\/[^"]+\.js"/);
      expect(content?.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b/);
    // Its script is served from the gateway itself, cached for good (the name changes with it).
    const src = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? "";
    const script = await call("GET", src);
    expect(script.status).toBe(200);
    expect(script.headers.get("Cache-Control")).toContain("immutable");
  });

  it("answers the app's own routes with the app, and missing files with a 404", async () => {
    const deepLink = await call("GET", "/dashboard/payments/chk_someid");
    expect(deepLink.status).toBe(200);
    expect(deepLink.body).toContain('<div id="root">');
    expect((await call("GET", "/dashboard")).headers.get("Location")).toBe("/dashboard/");
    expectError((await call("GET", "/dashboard/assets/missing.js")) as any, 404, "ROUTE_NOT_FOUND");
    expectError((await call("GET", "/dashboard/api/nothing")) as any, 404, "ROUTE_NOT_FOUND");
  });
});

describe("behind https", () => {
  let secure: TestPlatform;
  beforeAll(async () => {
    secure = await startTestPlatform({ PUBLIC_URL: "https://pay.example.ph" });
  });
  afterAll(async () => {
    await secure?.close();
  });

  it("names the session cookie __Host- and marks it Secure when the public URL is https", async () => {
    const reply = await fetch(`${secure.platform.gatewayUrl}/dashboard/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ adminKey: secure.platform.adminApiKey }),
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get("Set-Cookie")).toMatch(/^__Host-bayad_dashboard_session=[A-Za-z0-9_-]{43}; Path=\/; .*; Secure$/);
  });

  it("limits sign-in attempts per client address: 20 a minute, then 429 even for the right key", async () => {
    const attempt = (adminKey: string) =>
      fetch(`${secure.platform.gatewayUrl}/dashboard/api/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ adminKey }),
      });
    // One attempt was made by the test before; 19 wrong guesses fill the minute.
    for (let i = 0; i < 19; i++) expect((await attempt(`adm_wrong_guess_${i}`)).status).toBe(401);
    const refused = await attempt(secure.platform.adminApiKey);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("Set-Cookie")).toBeNull();
  });
});

describe("ending sessions", () => {
  it("refuses a session made with the old admin key after a restart with a new one", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bayad-session-key-"));
    try {
      const before = await startTestPlatform({ DATA_DIR: dataDir, ADMIN_API_KEY: "adm_old_key_0123456789abcdef" });
      const signedIn = await fetch(`${before.platform.gatewayUrl}/dashboard/api/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ adminKey: "adm_old_key_0123456789abcdef" }),
      });
      expect(signedIn.status).toBe(201);
      const cookie = (signedIn.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
      await before.close();

      const after = await startTestPlatform({ DATA_DIR: dataDir, ADMIN_API_KEY: "adm_new_key_0123456789abcdef" });
      try {
        const refused = await fetch(`${after.platform.gatewayUrl}/admin/v1/projects`, { headers: { Cookie: cookie } });
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("AUTHENTICATION_REQUIRED");
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("ends every session with bayad sessions revoke --all", async () => {
    const sessions = [await signIn(), await signIn()];
    const { stdout } = await promisify(execFile)(process.execPath, [cliPath, "sessions", "revoke", "--all"], {
      env: { PATH: process.env.PATH ?? "", ADMIN_API_KEY: api.platform.adminApiKey, BAYAD_URL: api.platform.gatewayUrl },
    });
    expect(stdout).toMatch(/^Ended \d+ dashboard sessions?\.$/m);
    for (const { cookie } of sessions) expectError((await call("GET", "/dashboard/api/session", { cookie })) as any, 401, "AUTHENTICATION_REQUIRED");
  });
});

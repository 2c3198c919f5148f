import { afterEach, describe, expect, it } from "vitest";
import { createEmbeddedStore } from "@bayad/store";
import { createResponseValidator } from "../openapi/response-validator.js";
import { cookieOf, setCookieOf, startDashboardGateway, type DashboardGateway, type Reply } from "../test-support/dashboard-gateway.js";

const keyA = "adm_key_A_0123456789abcdef";
const keyB = "adm_key_B_0123456789abcdef";
const sessionPath = "/dashboard/api/session";
const checkResponse = createResponseValidator();

const running: DashboardGateway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
});

async function start(env: Record<string, string>, store = createEmbeddedStore()): Promise<DashboardGateway> {
  const gateway = await startDashboardGateway(env, store);
  running.push(gateway);
  return gateway;
}

async function signIn(gateway: DashboardGateway, adminKey: string, headers: Record<string, string> = {}) {
  const reply = await gateway.request("POST", sessionPath, { body: { adminKey }, headers });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const setCookie = setCookieOf(reply);
  return { cookie: cookieOf(setCookie), setCookie, csrfToken: reply.body.data.csrfToken as string };
}

const sessionStatus = async (gateway: DashboardGateway, cookie: string, headers: Record<string, string> = {}) =>
  (await gateway.request("GET", sessionPath, { headers: { Cookie: cookie, ...headers } })).status;

function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.error.code).toBe(code);
}

describe("a dashboard session and the admin key it was made with", () => {
  it("is refused after the gateway restarts with another ADMIN_API_KEY, while a new sign-in works", async () => {
    const store = createEmbeddedStore();
    const first = await start({ ADMIN_API_KEY: keyA }, store);
    const { cookie } = await signIn(first, keyA);
    expect(await sessionStatus(first, cookie)).toBe(200);
    await first.close();
    running.splice(running.indexOf(first), 1);

    const restarted = await start({ ADMIN_API_KEY: keyB }, store);
    expectError(await restarted.request("GET", sessionPath, { headers: { Cookie: cookie } }), 401, "AUTHENTICATION_REQUIRED");
    expectError(await restarted.request("GET", "/admin/v1/projects", { headers: { Cookie: cookie } }), 401, "AUTHENTICATION_REQUIRED");
    const fresh = await signIn(restarted, keyB);
    expect((await restarted.request("GET", "/admin/v1/projects", { headers: { Cookie: fresh.cookie } })).status).toBe(200);
  });
});

describe("revokeDashboardSessions", () => {
  it("ends every session on every replica sharing the store, and says how many", async () => {
    const store = createEmbeddedStore();
    const one = await start({ ADMIN_API_KEY: keyA }, store);
    const two = await start({ ADMIN_API_KEY: keyA }, store);
    const sessions = [await signIn(one, keyA), await signIn(one, keyA), await signIn(two, keyA)];
    for (const { cookie } of sessions) expect(await sessionStatus(two, cookie)).toBe(200);

    const revoked = await two.request("POST", "/admin/v1/dashboard-sessions/revoke", { headers: { Authorization: `Bearer ${keyA}` } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ revoked: 3 });
    expect(checkResponse("POST", "/admin/v1/dashboard-sessions/revoke", revoked.status, revoked.body).problems).toEqual([]);
    for (const { cookie } of sessions) {
      for (const replica of [one, two]) {
        expectError(await replica.request("GET", "/admin/v1/projects", { headers: { Cookie: cookie } }), 401, "AUTHENTICATION_REQUIRED");
      }
    }
  });

  it("may be called with a session and its CSRF token, and not without the token", async () => {
    const gateway = await start({ ADMIN_API_KEY: keyA });
    const { cookie, csrfToken } = await signIn(gateway, keyA);
    const forged = await gateway.request("POST", "/admin/v1/dashboard-sessions/revoke", { headers: { Cookie: cookie } });
    expectError(forged, 403, "CSRF_TOKEN_INVALID");
    expect(await sessionStatus(gateway, cookie)).toBe(200);

    const revoked = await gateway.request("POST", "/admin/v1/dashboard-sessions/revoke", { headers: { Cookie: cookie, "X-CSRF-Token": csrfToken } });
    expect(revoked.body.data).toEqual({ revoked: 1 });
    expect(await sessionStatus(gateway, cookie)).toBe(401);
  });

  it("needs the admin key", async () => {
    const gateway = await start({ ADMIN_API_KEY: keyA });
    expectError(await gateway.request("POST", "/admin/v1/dashboard-sessions/revoke"), 401, "AUTHENTICATION_REQUIRED");
    expectError(
      await gateway.request("POST", "/admin/v1/dashboard-sessions/revoke", { headers: { Authorization: `Bearer ${keyB}` } }),
      401,
      "INVALID_CREDENTIALS",
    );
  });
});

describe("the session cookie", () => {
  it("is __Host- prefixed and Secure, with Path=/ and no Domain, for any host but loopback over plain http", async () => {
    const gateway = await start({ ADMIN_API_KEY: keyA });
    const host = { Host: "pay.example.ph" };
    const { setCookie, cookie } = await signIn(gateway, keyA, host);
    expect(setCookie).toMatch(/^__Host-bayad_dashboard_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie.split("; ")).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Strict", "Secure"]));
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(await sessionStatus(gateway, cookie, host)).toBe(200);
    // The same token under the unprefixed name, which any plain-http page could have planted, is not read there.
    const token = cookie.split("=")[1]!;
    expect(await sessionStatus(gateway, `bayad_dashboard_session=${token}`, host)).toBe(401);
  });

  it("keeps the unprefixed name, without Secure, for a loopback gateway over plain http", async () => {
    const gateway = await start({ ADMIN_API_KEY: keyA });
    for (const host of ["127.0.0.1", "localhost:8080", "[::1]:8080"]) {
      const { setCookie } = await signIn(gateway, keyA, { Host: host });
      expect(setCookie, host).toMatch(/^bayad_dashboard_session=[A-Za-z0-9_-]{43}; /);
      expect(setCookie, host).not.toContain("Secure");
    }
  });

  it("is __Host- and Secure on loopback too when the public URL is https", async () => {
    const gateway = await start({ ADMIN_API_KEY: keyA, PUBLIC_URL: "https://pay.example.ph" });
    const { setCookie } = await signIn(gateway, keyA, { Host: "127.0.0.1" });
    expect(setCookie).toMatch(/^__Host-bayad_dashboard_session=.*; Secure$/);
  });
});

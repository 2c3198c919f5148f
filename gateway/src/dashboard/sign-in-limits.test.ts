import { afterEach, describe, expect, it } from "vitest";
import { setCookieOf, startDashboardGateway, type DashboardGateway } from "../test-support/dashboard-gateway.js";

/*
 * The dashboard's sign-in limits through a real gateway: 20 attempts a minute per client
 * address (IPv6 by /64), the client address taken from X-Forwarded-For only as TRUST_PROXY says,
 * and a global budget of wrong keys across all addresses, counted by reason in a metric.
 */

const adminKey = "adm_key_A_0123456789abcdef";
const running: DashboardGateway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
});

async function start(env: Record<string, string> = {}): Promise<DashboardGateway> {
  const gateway = await startDashboardGateway({ ADMIN_API_KEY: adminKey, ...env });
  running.push(gateway);
  return gateway;
}

/** One sign-in attempt; `forwardedFor` as the proxy in front would send it. */
async function attempt(gateway: DashboardGateway, key: string, forwardedFor?: string) {
  return gateway.request("POST", "/dashboard/api/session", {
    body: { adminKey: key },
    headers: forwardedFor === undefined ? {} : { "X-Forwarded-For": forwardedFor },
  });
}

/** Spends the per-address limit (20 a minute) with wrong keys from `addressOf(i)`. */
async function spendAddressLimit(gateway: DashboardGateway, addressOf: (i: number) => string | undefined) {
  for (let i = 0; i < 20; i++) expect((await attempt(gateway, `adm_wrong_guess_${i}`, addressOf(i))).status).toBe(401);
}

async function expectRateLimited(reply: Awaited<ReturnType<typeof attempt>>) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(429);
  expect(reply.body.error.code).toBe("RATE_LIMITED");
  expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0);
  expect(setCookieOf(reply)).toBe("");
}

async function refusals(gateway: DashboardGateway): Promise<Record<string, number>> {
  const text = await (await fetch(gateway.gateway.metricsUrl!)).text();
  const counts: Record<string, number> = {};
  for (const [, reason, value] of text.matchAll(/^bayad_dashboard_sign_in_refusals_total\{reason="(\w+)"\} (\d+)$/gm)) counts[reason!] = Number(value);
  return counts;
}

describe("the per-address sign-in limit and X-Forwarded-For", () => {
  it("ignores X-Forwarded-For by default: every address it names is the one socket peer", async () => {
    const gateway = await start();
    await spendAddressLimit(gateway, (i) => `203.0.113.${i + 1}`);
    await expectRateLimited(await attempt(gateway, adminKey, "198.51.100.200"));
    expect(await refusals(gateway)).toMatchObject({ invalid_key: 20, address_limit: 1 });
  });

  it("believes the address the trusted proxy appended (TRUST_PROXY=1), never what the client wrote before it", async () => {
    const gateway = await start({ TRUST_PROXY: "1" });
    await spendAddressLimit(gateway, (i) => (i % 2 === 0 ? "203.0.113.7" : `10.${i}.0.1, 203.0.113.7`));
    await expectRateLimited(await attempt(gateway, adminKey, "203.0.113.7"));
    await expectRateLimited(await attempt(gateway, adminKey, "198.51.100.1, 203.0.113.7"));
    expect((await attempt(gateway, adminKey, "203.0.113.8")).status).toBe(201);
  });

  it("believes X-Forwarded-For from a proxy within the TRUST_PROXY ranges", async () => {
    const gateway = await start({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.0/8, ::1/128" });
    await spendAddressLimit(gateway, () => "203.0.113.7, 10.1.1.1");
    await expectRateLimited(await attempt(gateway, adminKey, "203.0.113.7"));
    expect((await attempt(gateway, adminKey, "203.0.113.8, 10.1.1.1")).status).toBe(201);
  });

  it("uses the socket's peer when the trusted proxy's header is malformed", async () => {
    const gateway = await start({ TRUST_PROXY: "1" });
    await spendAddressLimit(gateway, (i) => `not-an-address-${i}`);
    await expectRateLimited(await attempt(gateway, adminKey, "garbage"));
    expect((await attempt(gateway, adminKey, "203.0.113.8")).status).toBe(201);
  });

  it("counts IPv6 clients by their /64", async () => {
    const gateway = await start({ TRUST_PROXY: "1" });
    await spendAddressLimit(gateway, (i) => `2001:db8:1:2::${(i + 1).toString(16)}`);
    await expectRateLimited(await attempt(gateway, adminKey, "2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect((await attempt(gateway, adminKey, "2001:db8:1:3::1")).status).toBe(201);
  });
});

describe("the global sign-in failure budget", () => {
  it("refuses every sign-in, the right key too, once wrong keys from all addresses have spent it, and counts why", async () => {
    const gateway = await start({ TRUST_PROXY: "1", DASHBOARD_SIGN_IN_GLOBAL_FAILURES: "3" });
    expect((await attempt(gateway, adminKey, "203.0.113.1")).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await attempt(gateway, `adm_wrong_guess_${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
    await expectRateLimited(await attempt(gateway, adminKey, "203.0.113.2"));
    await expectRateLimited(await attempt(gateway, "adm_wrong_guess_x", "203.0.113.3"));
    expect(await refusals(gateway)).toEqual({ invalid_key: 3, global_limit: 2 });
    // The admin key itself is not limited: the operator can still act (and end sessions).
    const direct = await gateway.request("GET", "/admin/v1/projects", { headers: { Authorization: `Bearer ${adminKey}` } });
    expect(direct.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBase62 } from "@bayad/kit";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * The routing between a project's provider accounts through the admin API over real HTTP (every
 * answer checked against the OpenAPI document): the gateway, the payments service and its store,
 * and a PayMongo account at the PayMongo simulator.
 */

let simulator: PaymongoSimulator;
let api: TestPlatform;

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
  api = await startTestPlatform({ PAYMONGO_API_BASE: simulator.url });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await simulator?.close();
});

const routingPath = (projectId: string, environment: string) => `/admin/v1/projects/${projectId}/provider-routing/${environment}`;

/** A project with a live PayMongo account: its id, its live API key and the account's id. */
async function projectWithAccount() {
  const { projectId, liveKey } = await api.newProject();
  const put = await api.admin("PUT", `/admin/v1/projects/${projectId}/provider-accounts/live`, {
    provider: "paymongo",
    secretKey: `sk_live_${randomBase62(24)}`,
    paymentMethodTypes: ["qrph", "gcash", "card"],
  });
  expect(put.status).toBe(201);
  return { projectId, liveKey, providerAccountId: put.body.data.providerAccountId as string };
}

const checkout = (liveKey: string) =>
  api.request("POST", "/api/v1/payments/checkouts", {
    credential: liveKey,
    body: {
      referenceId: `order-${randomBase62(10)}`,
      amount: { amountMinor: 500_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/ok",
      cancelUrl: "https://shop.example.ph/no",
    },
  });

describe("provider routing through the admin API", () => {
  it("answers the default over the project's accounts, then the routing put, at its version", async () => {
    const { projectId: bare } = await api.newProject();
    const none = await api.admin("GET", routingPath(bare, "live"));
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ projectId: bare, environment: "live", routes: [], default: true, version: 0 });

    const { projectId, providerAccountId } = await projectWithAccount();
    const initial = await api.admin("GET", routingPath(projectId, "live"));
    expect(initial.body.data).toMatchObject({ default: true, version: 0, routes: [{ providerAccountId, weight: 100 }] });

    const routes = [{ providerAccountId, methods: ["checkout", "qrph"], maxAmount: { amountMinor: 50_000_00, currency: "PHP" }, weight: 250 }];
    const put = await api.admin("PUT", routingPath(projectId, "live"), { routes, version: 0 });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ projectId, environment: "live", default: false, version: 1, routes });
    expect((await api.admin("GET", routingPath(projectId, "live"))).body.data).toEqual(put.body.data);

    // A second put from the same read loses.
    expectError(await api.admin("PUT", routingPath(projectId, "live"), { routes, version: 0 }), 409, "CONCURRENT_MODIFICATION");
  });

  it("refuses a routing naming an account that is not the project's, or without a weight above 0, naming routes[i].field; stores nothing", async () => {
    const { projectId, providerAccountId } = await projectWithAccount();
    const other = await projectWithAccount();
    const foreign = await api.admin("PUT", routingPath(projectId, "live"), {
      routes: [{ providerAccountId, weight: 100 }, { providerAccountId: other.providerAccountId, weight: 100 }],
      version: 0,
    });
    expectError(foreign, 400, "VALIDATION_FAILED");
    expect(foreign.body.error.details).toEqual([`routes[1].providerAccountId: ${other.providerAccountId} is not a provider account of this project in live mode`]);

    const idle = await api.admin("PUT", routingPath(projectId, "live"), { routes: [{ providerAccountId, weight: 0 }], version: 0 });
    expectError(idle, 400, "VALIDATION_FAILED");
    expect(idle.body.error.details).toEqual(["routes: at least one route needs a weight above 0"]);

    expectError(await api.admin("PUT", routingPath(projectId, "live"), { routes: [{ providerAccountId, weight: 1001 }], version: 0 }), 400, "VALIDATION_FAILED");
    expect((await api.admin("GET", routingPath(projectId, "live"))).body.data).toMatchObject({ default: true, version: 0 });
  });

  it("routes new checkouts by it: each answers the account that took it, and a method no route takes is refused before anything is made", async () => {
    const { projectId, liveKey, providerAccountId } = await projectWithAccount();
    const made = await checkout(liveKey);
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ provider: "paymongo", providerAccountId });

    await api.admin("PUT", routingPath(projectId, "live"), { routes: [{ providerAccountId, methods: ["qrph"], weight: 100 }], version: 0 });
    const refused = await checkout(liveKey);
    expectError(refused, 422, "PAYMENT_METHOD_NOT_OFFERED");
  });

  it("requires the admin key and a known project", async () => {
    const { projectId, liveKey } = await api.newProject();
    expect((await api.request("GET", routingPath(projectId, "live"), { credential: liveKey })).status).toBe(401);
    expectError(await api.admin("GET", routingPath("prj_unknown", "live")), 404, "RESOURCE_NOT_FOUND");
  });
});

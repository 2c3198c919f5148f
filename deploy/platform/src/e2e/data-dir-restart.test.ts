import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteJetStreamNamespace } from "@bayad/events/testing";
import { launchServicesMode, type ServicesMode } from "../services-mode/services-launcher.js";
import { apiClientFor, prerequisiteMet, unique } from "../test-support/harness.js";
import { bannerOf, temporaryPlatforms, type PrintedBanner } from "../test-support/platform-process.js";

/**
 * What `npm start` acknowledged is there after a restart, whether it was stopped (Ctrl-C,
 * SIGTERM) or killed (SIGKILL): the admin key, the test key and the data, in DATA_DIR.
 */

/** What the banner says that must not change: the keys and the default project. */
const keysOf = ({ adminApiKey, testApiKey, projectId }: PrintedBanner) => ({ adminApiKey, testApiKey, projectId });

describe("npm start after a restart", () => {
  const platforms = temporaryPlatforms("bayad-restart-");
  const start = () => platforms.launch({ DATA_DIR: join(platforms.parent(), "data") });

  it.each([
    ["SIGTERM", 0],
    ["SIGKILL", null],
  ] as const)("keeps the admin key, the test key and the data when stopped with %s", async (signal, exitCode) => {
    const first = start();
    const printedFirst = await bannerOf(first);
    const before = apiClientFor(printedFirst);
    const customer = await before.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("restart"), email: "maria@example.ph", name: "Maria Santos" },
    });
    expect(customer.status).toBe(201);
    const project = await before.admin("POST", "/admin/v1/projects", { name: "Kape Delivery" });
    expect(project.status).toBe(201);
    first.child.kill(signal);
    expect(await first.exited).toBe(exitCode);

    const second = start();
    const printed = await bannerOf(second);
    expect(keysOf(printed)).toEqual(keysOf(printedFirst));
    const after = apiClientFor(printed);
    const read = await after.request("GET", `/api/v1/payments/customers/${customer.body.data.customerId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(customer.body.data);
    // The admin key works, and the project made before the restart is there.
    expect((await after.admin("GET", `/admin/v1/projects/${project.body.data.projectId}/api-keys`)).status).toBe(200);
  });
});

const natsUrl = process.env.NATS_URL;
const natsReady = prerequisiteMet("the services-mode restart test", natsUrl ? undefined : "NATS_URL is not set (e.g. nats://127.0.0.1:4222)");

describe.skipIf(!natsReady)("npm run start:services after a restart (needs NATS_URL)", () => {
  const namespace = unique("svcrestart").replace(/-/g, "");
  let parent: string;
  let mode: ServicesMode | undefined;
  const launch = () =>
    launchServicesMode({
      env: { PATH: process.env.PATH ?? "", NATS_URL: natsUrl, EVENTS_NAMESPACE: namespace, PORT: "0", LOG_LEVEL: "warn" },
      dataDir: join(parent, "data"),
    });

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "bayad-services-restart-"));
  });
  afterEach(async () => {
    await mode?.stop();
    rmSync(parent, { recursive: true, force: true });
    await deleteJetStreamNamespace({ url: natsUrl!, namespace });
  }, 60_000);

  it("finds the same admin key, test key and data in each process's DATA_DIR", async () => {
    mode = await launch();
    const before = apiClientFor(mode);
    const customer = await before.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("restart"), email: "juan@example.ph", name: "Juan dela Cruz" },
    });
    expect(customer.status).toBe(201);
    const first = { adminApiKey: mode.adminApiKey, testApiKey: mode.testApiKey, projectId: mode.projectId };
    await mode.stop();

    mode = await launch();
    expect({ adminApiKey: mode.adminApiKey, testApiKey: mode.testApiKey, projectId: mode.projectId }).toEqual(first);
    const read = await apiClientFor(mode).request("GET", `/api/v1/payments/customers/${customer.body.data.customerId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(customer.body.data);
  }, 90_000);
});

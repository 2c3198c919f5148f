import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteJetStreamNamespace } from "@bayad/events/testing";
import { launchServicesMode, type ServicesMode } from "../services-mode/services-launcher.js";
import { componentNames } from "../services-mode/components.js";
import { lockFileName } from "../data-dir/data-dir-lock.js";
import { prerequisiteMet, unique } from "../test-support/harness.js";

/**
 * `npm run start:services` with a DATA_DIR and no MONGODB_URI: the launcher keeps its secrets
 * and default project in DATA_DIR, and every process holds DATA_DIR/<component> for its store.
 */

const natsUrl = process.env.NATS_URL;
const natsReady = prerequisiteMet("the services-mode DATA_DIR tests", natsUrl ? undefined : "NATS_URL is not set (e.g. nats://127.0.0.1:4222)");

describe.skipIf(!natsReady)("services mode with a DATA_DIR (needs NATS_URL)", () => {
  const namespace = unique("svcdata").replace(/-/g, "");
  const logs: string[] = [];
  let parent: string;
  let dataDir: string;
  let mode: ServicesMode;
  const launch = () =>
    launchServicesMode({
      env: { PATH: process.env.PATH ?? "", NATS_URL: natsUrl, EVENTS_NAMESPACE: namespace, PORT: "0", LOG_LEVEL: "warn" },
      dataDir,
      output: (name, line) => logs.push(`[${name}] ${line}`),
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.join("\n")}`);
    });

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), "bayad-services-data-"));
    dataDir = join(parent, "data");
    mode = await launch();
  }, 90_000);

  afterAll(async () => {
    await mode?.stop();
    rmSync(parent, { recursive: true, force: true });
    await deleteJetStreamNamespace({ url: natsUrl!, namespace });
  }, 60_000);

  it("keeps the shared secrets and the default project in DATA_DIR/secrets.json (mode 0600)", () => {
    const file = join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(kept.secrets).sort()).toEqual(["ADMIN_API_KEY", "GATEWAY_SECRET", "OTP_HASH_SECRET", "RECORDS_CURSOR_SECRET", "SANDBOX_SECRET", "SECRETS_KEY"]);
    expect(kept.secrets.ADMIN_API_KEY).toBe(mode.adminApiKey);
    expect(kept.defaultProject).toEqual({ projectId: mode.projectId, testApiKey: mode.testApiKey });
    expect(mode.dataDir).toBe(dataDir);
  });

  it("gives each process DATA_DIR/<component>, which it holds, and refuses a second launcher on DATA_DIR", async () => {
    for (const name of componentNames) {
      expect(readFileSync(join(dataDir, name, lockFileName), "utf8")).toBe(`${mode.processes.get(name)!.pid}\n`);
    }
    expect(readFileSync(join(dataDir, lockFileName), "utf8")).toBe(`${process.pid}\n`);
    await expect(launch()).rejects.toThrow(`DATA_DIR ${dataDir} is in use by another Bayad process (pid ${process.pid})`);
  });
});

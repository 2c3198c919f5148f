import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bannerOf, launchPlatform, type PlatformProcess } from "../test-support/platform-process.js";

/**
 * DATA_DIR as `npm start` uses it: the platform in a child process on a temporary DATA_DIR, the
 * way a developer starts it. (That the data itself survives a restart: data-dir-restart.test.ts.)
 */

describe("DATA_DIR (npm start)", () => {
  let parent: string;
  let dataDir: string;
  let running: PlatformProcess[] = [];
  const start = (env: Record<string, string> = {}, options: { uid?: number } = {}) => {
    const platform = launchPlatform({ PORT: "0", METRICS_PORT: "0", DATA_DIR: dataDir, ...env }, options);
    running.push(platform);
    return platform;
  };
  /** Its exit code and its output's lines. */
  const outcome = async (platform: PlatformProcess) => ({ code: await platform.exited, lines: platform.output().trim().split("\n") });

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "bayad-data-dir-"));
    dataDir = join(parent, "data");
  });
  afterEach(async () => {
    for (const platform of running) {
      platform.child.kill("SIGKILL");
      await platform.exited;
    }
    running = [];
    rmSync(parent, { recursive: true, force: true });
  });

  it("refuses a second platform on the same DATA_DIR with one line naming it and the first one's pid", async () => {
    const first = start();
    const banner = await bannerOf(first);
    expect(banner.dataDir).toBe(dataDir);

    const second = start();
    expect(await outcome(second)).toEqual({
      code: 1,
      lines: [`Configuration error: DATA_DIR ${dataDir} is in use by another Bayad process (pid ${first.child.pid}): stop it, or set DATA_DIR to another directory`],
    });
    // The first one runs on.
    const capabilities = await fetch(`${banner.gatewayUrl}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${banner.testApiKey}` } });
    expect(capabilities.status).toBe(200);
  });

  it("keeps the secrets it generated in secrets.json, readable by its owner only, and prints the same admin key after a restart", async () => {
    const first = start();
    const banner = await bannerOf(first);
    const file = join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(kept.secrets.ADMIN_API_KEY).toBe(banner.adminApiKey);
    expect(Object.keys(kept.secrets).sort()).toEqual(["ADMIN_API_KEY", "GATEWAY_SECRET", "OTP_HASH_SECRET", "RECORDS_CURSOR_SECRET", "SANDBOX_SECRET", "SECRETS_KEY"]);
    expect(kept.defaultProject).toEqual({ projectId: banner.projectId, testApiKey: banner.testApiKey });
    expect(first.output()).toContain(`Admin key:     ${banner.adminApiKey}   (generated once, kept in DATA_DIR; set ADMIN_API_KEY to choose one)`);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const second = start();
    const again = await bannerOf(second);
    expect(again.adminApiKey).toBe(banner.adminApiKey);
    const created = await fetch(`${again.gatewayUrl}/admin/v1/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${again.adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "After a restart" }),
    });
    expect(created.status).toBe(201);
    expect(JSON.parse(readFileSync(file, "utf8")).secrets).toEqual(kept.secrets);
  });

  it("uses a secret set in the environment over the kept one, and leaves the kept one as it is", async () => {
    const first = start();
    const banner = await bannerOf(first);
    first.child.kill("SIGTERM");
    await first.exited;

    const chosen = `adm_chosen_${randomBytes(12).toString("hex")}`;
    const second = start({ ADMIN_API_KEY: chosen });
    const again = await bannerOf(second);
    expect(again.adminApiKey).toBe(chosen);
    expect(second.output()).not.toContain("generated once");
    const refused = await fetch(`${again.gatewayUrl}/admin/v1/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${banner.adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "With the kept key" }),
    });
    expect(refused.status).toBe(401);
    expect(JSON.parse(readFileSync(join(dataDir, "secrets.json"), "utf8")).secrets.ADMIN_API_KEY).toBe(banner.adminApiKey);
  });

  const unusable: Array<[string, () => { path: string; problem: RegExp }]> = [
    [
      "a file where DATA_DIR should be",
      () => {
        writeFileSync(dataDir, "");
        return { path: dataDir, problem: /is not a directory$/ };
      },
    ],
    [
      "a DATA_DIR that cannot be created (a file in its path)",
      () => {
        writeFileSync(join(parent, "file"), "");
        dataDir = join(parent, "file", "data");
        return { path: dataDir, problem: /cannot be created \(ENOTDIR: not a directory\)$/ };
      },
    ],
    [
      "a secrets file that is not valid JSON",
      () => {
        mkdirSync(dataDir);
        writeFileSync(join(dataDir, "secrets.json"), '{"secrets": {');
        return { path: join(dataDir, "secrets.json"), problem: /is not valid JSON \(.+\): fix it, or delete it to have new secrets generated$/ };
      },
    ],
    [
      "a secrets file whose secret is too short",
      () => {
        mkdirSync(dataDir);
        writeFileSync(join(dataDir, "secrets.json"), JSON.stringify({ secrets: { GATEWAY_SECRET: "short" } }));
        return { path: join(dataDir, "secrets.json"), problem: /"secrets\.GATEWAY_SECRET" is not a string of at least 16 characters/ };
      },
    ],
    [
      "a component's store whose data file is damaged",
      () => {
        mkdirSync(join(dataDir, "payments"), { recursive: true });
        writeFileSync(join(dataDir, "payments", "data.mdb"), "this is not an LMDB data file\n".repeat(400));
        return { path: join(dataDir, "payments"), problem: /cannot be opened as a store \(.*data\.mdb is not an LMDB data file/ };
      },
    ],
  ];
  it.each(unusable)("stops on %s with one line naming it", async (_case, prepare) => {
    const { path, problem } = prepare();
    const { code, lines } = await outcome(start());
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.startsWith(`Configuration error: DATA_DIR ${path} `)).toBe(true);
    expect(lines[0]).toMatch(problem);
  });

  it("stops on a DATA_DIR it may not write to, naming it", async () => {
    mkdirSync(dataDir, { mode: 0o500 });
    // Root writes anywhere: the platform then runs as nobody, in a DATA_DIR that is root's.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chmodSync(parent, 0o755);
    else chmodSync(dataDir, 0o500);
    const { code, lines } = await outcome(start({}, asRoot ? { uid: 65534 } : {}));
    expect(code).toBe(1);
    expect(lines).toEqual([`Configuration error: DATA_DIR ${dataDir} is not writable (EACCES: permission denied)`]);
  });
});

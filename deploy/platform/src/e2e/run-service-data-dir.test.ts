import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { waitFor } from "../test-support/platform-process.js";

/**
 * A component's own process (services mode, containers) without MONGODB_URI: its store and the
 * secrets it generated in its DATA_DIR, which it holds alone; without DATA_DIR, a temporary store.
 */

const runService = fileURLToPath(new URL("../../dist/run-service.js", import.meta.url));

describe("run-service with DATA_DIR", () => {
  let parent: string;
  let dataDir: string;
  let running: Array<{ child: ChildProcess; exited: Promise<number | null> }> = [];
  const start = (env: Record<string, string>) => {
    const child = spawn(process.execPath, [runService, "otp"], {
      env: { PATH: process.env.PATH ?? "", PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    running.push({ child, exited });
    return { child, exited, output: () => output };
  };

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "bayad-run-service-"));
    dataDir = join(parent, "otp");
  });
  afterEach(async () => {
    for (const { child, exited } of running) {
      child.kill("SIGKILL");
      await exited;
    }
    running = [];
    rmSync(parent, { recursive: true, force: true });
  });

  it("keeps the component's own generated secret in DATA_DIR, refuses a second process there, and finds the secret again", async () => {
    const first = start({ DATA_DIR: dataDir });
    await waitFor(first.output, /otp listening/, first.exited);
    const file = join(dataDir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(kept.secrets)).toEqual(["OTP_HASH_SECRET"]);

    const second = start({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output().trim()).toBe(
      `Configuration error: DATA_DIR ${dataDir} is in use by another Bayad process (pid ${first.child.pid}): stop it, or set DATA_DIR to another directory`,
    );

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const third = start({ DATA_DIR: dataDir });
    await waitFor(third.output, /otp listening/, third.exited);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(kept);
  });

  it("runs on a temporary store without DATA_DIR or MONGODB_URI, and says so", async () => {
    const otp = start({});
    await waitFor(otp.output, /otp listening/, otp.exited);
    expect(otp.output()).toContain("neither MONGODB_URI nor DATA_DIR is set: using a temporary embedded store");
    expect(existsSync(join(parent, "otp"))).toBe(false);
  });
});

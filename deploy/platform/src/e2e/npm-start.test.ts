import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { oneProcessNodeFlags } from "../node-flags.js";
import { launchPlatform as launchWith, waitFor } from "../test-support/platform-process.js";

function startScript(packageJson: string): string {
  return (JSON.parse(readFileSync(new URL(packageJson, import.meta.url), "utf8")) as { scripts: { start: string } }).scripts.start;
}

describe("npm start (the all-in-one launcher)", () => {
  let running: ChildProcess | undefined;
  // A DATA_DIR of the test's own, never the repository's .bayad.
  let parent: string;
  let dataDir: string;
  const launch = (env: Record<string, string>) => launchWith({ DATA_DIR: dataDir, ...env });
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "bayad-npm-start-"));
    dataDir = join(parent, "data");
  });
  afterEach(async () => {
    running?.kill("SIGKILL");
    if (running && running.exitCode === null && running.signalCode === null) await new Promise((resolve) => running!.once("exit", resolve));
    running = undefined;
    rmSync(parent, { recursive: true, force: true });
  });

  it("runs the launcher with the one-process Node.js flags (the benchmark starts it with the same)", () => {
    const flags = oneProcessNodeFlags.join(" ");
    expect(startScript("../../../../package.json")).toMatch(new RegExp(`&& node ${flags} deploy/platform/dist/main\\.js$`));
    expect(startScript("../../package.json")).toBe(`node ${flags} dist/main.js`);
  });

  it("prints the gateway URL, the admin key and a working test API key, and stops cleanly on SIGTERM", async () => {
    const { child, output, exited } = launch({ PORT: "0", METRICS_PORT: "0" });
    running = child;
    const [, url] = await waitFor(output, /Gateway URL:\s+(http:\/\/\S+)/, exited);
    expect((await waitFor(output, /Data:\s+(\S+)/, exited))[1]).toBe(dataDir);
    const [, metricsUrl] = await waitFor(output, /Metrics:\s+(http:\/\/\S+)/, exited);
    const [, adminKey] = await waitFor(output, /Admin key:\s+(\S+)/, exited);
    const [, apiKey] = await waitFor(output, /Test API key:\s+(sk_test_\S+)/, exited);

    const capabilities = await fetch(`${url}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(capabilities.status).toBe(200);
    const project = await fetch(`${url}/admin/v1/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "From the banner" }),
    });
    expect(project.status).toBe(201);
    // The metrics of both threads on the internal listener the banner names; none on the public port.
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/bayad_http_request_duration_seconds_count\{operation="getPaymentCapabilities",method="GET",status="200"\} [1-9]\d*/);
    expect(metrics).toMatch(/bayad_rpc_request_duration_seconds_count\{service="PaymentsService",procedure="GetCapabilities",code="ok"\} [1-9]\d*/);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("refuses a bad setting with one line naming the variable", async () => {
    const { child, output, exited } = launch({ PORT: "eighty" });
    running = child;
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('Configuration error: PORT must be an integer from 0 to 65535, got "eighty"');
    // Settings are checked before DATA_DIR is made.
    expect(existsSync(dataDir)).toBe(false);
  });
});

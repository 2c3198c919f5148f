import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "@bayad/webhooks-service/testing";
import { oneProcessNodeFlags } from "../node-flags.js";
import { launchPlatform as launchWith, waitFor } from "../test-support/platform-process.js";
import { eventually, newIdempotencyKey } from "../test-support/harness.js";

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
    const [, apiKey, projectId] = await waitFor(output, /Test API key:\s+(sk_test_\S+)\s+\(project (prj_\w+)\)/, exited);
    const [, dashboardUrl] = await waitFor(output, /Dashboard:\s+(http:\/\/\S+)/, exited);

    const capabilities = await fetch(`${url}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(capabilities.status).toBe(200);
    const project = await fetch(`${url}/admin/v1/projects`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "From the banner" }),
    });
    expect(project.status).toBe(201);

    // A payment made with curl and the printed test key is there for the operator signed in to
    // the printed dashboard with the printed admin key.
    const checkout = await fetch(`${url}/api/v1/payments/checkouts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", "Idempotency-Key": newIdempotencyKey() },
      body: JSON.stringify({ referenceId: "order-from-curl", amount: { amountMinor: 42_00, currency: "PHP" }, successUrl: "https://shop.example.ph/ok", cancelUrl: "https://shop.example.ph/no" }),
    });
    expect(checkout.status).toBe(201);
    expect((await fetch(dashboardUrl!)).headers.get("Content-Type")).toContain("text/html");
    const signIn = await fetch(`${url}/dashboard/api/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ adminKey }),
    });
    expect(signIn.status).toBe(201);
    const cookie = (signIn.headers.get("Set-Cookie") ?? "").split(";")[0]!;
    const found = await eventually(async () => {
      const page = await fetch(`${url}/api/v1/payments/records?referenceId=order-from-curl`, {
        headers: { Cookie: cookie, "Bayad-Project": projectId!, "Bayad-Environment": "test" },
      });
      const records = ((await page.json()) as { data: { records: Array<{ referenceId: string; amountMinor: string }> } }).data.records;
      return records.length > 0 ? records : undefined;
    });
    expect(found[0]).toMatchObject({ referenceId: "order-from-curl", amountMinor: "4200" });
    // The metrics of both threads on the internal listener the banner names; none on the public port.
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/bayad_http_request_duration_seconds_count\{operation="getPaymentCapabilities",method="GET",status="200"\} [1-9]\d*/);
    expect(metrics).toMatch(/bayad_rpc_request_duration_seconds_count\{service="PaymentsService",procedure="GetCapabilities",code="ok"\} [1-9]\d*/);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("lets a test-mode webhook endpoint receive on localhost, unless WEBHOOKS_ALLOW_PRIVATE_TARGETS says otherwise", async () => {
    const receiver = await startWebhookReceiver();
    const createEndpoint = async (env: Record<string, string>) => {
      const { child, output, exited } = launch({ PORT: "0", METRICS_PORT: "0", ...env });
      running = child;
      const [, url] = await waitFor(output, /Gateway URL:\s+(http:\/\/\S+)/, exited);
      const [, apiKey] = await waitFor(output, /Test API key:\s+(sk_test_\S+)/, exited);
      const call = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json", "Idempotency-Key": newIdempotencyKey() },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
      const created = await call("/api/v1/webhook-endpoints", { url: receiver.url, enabledEvents: ["*"] });
      return { created, call, child, exited };
    };
    try {
      const allowed = await createEndpoint({});
      expect(allowed.created.status).toBe(201);
      const sent = await allowed.call(`/api/v1/webhook-endpoints/${allowed.created.body.data.webhookEndpointId}/test`, {});
      expect(sent.status).toBe(202);
      const deadline = Date.now() + 20_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: "webhook.test", environment: "test" });
      allowed.child.kill("SIGTERM");
      expect(await allowed.exited).toBe(0);

      const refused = await createEndpoint({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "false" });
      expect(refused.created.status).toBe(422);
      expect(refused.created.body.error.code).toBe("WEBHOOK_URL_NOT_ALLOWED");
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("refuses a bad setting with one line naming the variable", async () => {
    const { child, output, exited } = launch({ PORT: "eighty" });
    running = child;
    expect(await exited).toBe(1);
    expect(output().trim()).toBe('Configuration error: PORT must be an integer from 0 to 65535, got "eighty"');
    // Settings are checked before DATA_DIR is made.
    expect(existsSync(dataDir)).toBe(false);
  });
});

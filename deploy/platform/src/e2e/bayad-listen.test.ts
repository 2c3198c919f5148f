import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { eventually, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * `bayad listen` as a developer runs it: the gateway package's built CLI in its own process,
 * against a platform started here, forwarding to a receiver standing in for the developer's app.
 * Signatures are checked with the `standardwebhooks` package, as the app would check them.
 */

const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");
const runCli = promisify(execFile);
/** Quick retries, so a failed forward is retried within the test; the first attempt is immediate. */
const quickRetries = { WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };

interface Listening {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  /** The first line printed that `matches`, once it is printed. */
  line(matches: (line: string) => boolean): Promise<string>;
  /** The exit status, once the process has ended. */
  exited: Promise<number | null>;
}

function startListen(args: string[]): Listening {
  // Only PATH from this process: no BAYAD_* or ADMIN_API_KEY of the developer's leaks in.
  const child = spawn(process.execPath, [cliPath, "listen", ...args], { env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const stderr: string[] = [];
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const complete = pending.split("\n");
    pending = complete.pop()!;
    lines.push(...complete);
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    stderr,
    line: (matches) =>
      eventually(async () => {
        if (child.exitCode !== null) throw new Error(`bayad listen exited with ${child.exitCode}: ${stderr.join("")}`);
        return lines.find(matches);
      }, 20_000),
    exited,
  };
}

/** The receiver's deliveries of the checkout.paid event of `checkoutId`, once it has `count` of them. */
function deliveriesAbout(receiver: WebhookReceiver, checkoutId: string, count = 1): Promise<ReceivedDelivery[]> {
  return eventually(async () => {
    const matching = receiver.received.filter((delivery) => {
      const event = JSON.parse(delivery.body) as { type: string; data: { checkoutId?: string } };
      return event.type === "checkout.paid" && event.data.checkoutId === checkoutId;
    });
    return matching.length >= count ? matching : undefined;
  }, 20_000);
}

/** Verifies what the app received with `secret`, as the app would; throws when it does not verify. */
function verified(delivery: ReceivedDelivery, secret: string) {
  const headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(delivery.body, headers) as { id: string; type: string; data: { checkoutId: string } };
}

async function endpointIds(api: TestPlatform, credential: string): Promise<string[]> {
  const listed = await api.request("GET", "/api/v1/webhook-endpoints", { credential });
  expect(listed.status).toBe(200);
  return listed.body.data.webhookEndpoints.map((endpoint: { webhookEndpointId: string }) => endpoint.webhookEndpointId);
}

describe("bayad listen", () => {
  let api: TestPlatform;
  let receiver: WebhookReceiver | undefined;
  let listening: Listening | undefined;

  beforeAll(async () => {
    api = await startTestPlatform(quickRetries);
  });
  afterAll(() => api?.close());
  afterEach(async () => {
    if (listening && listening.child.exitCode === null) {
      listening.child.kill("SIGKILL");
      await listening.exited;
    }
    listening = undefined;
    await receiver?.close();
  });

  it("forwards a paid checkout's event to the local app with headers that verify with the printed secret, and removes its endpoint on Ctrl-C", async () => {
    receiver = await startWebhookReceiver();
    const project = await api.newProject();
    listening = startListen(["--forward-to", receiver.url, "--events", "checkout.paid", "--api-key", project.testKey, "--gateway", api.platform.gatewayUrl]);

    const ready = await listening.line((line) => line.startsWith("Ready."));
    const secret = /Your webhook signing secret is (whsec_\S+)/.exec(ready)?.[1];
    expect(secret).toBeDefined();
    const listed = await api.request("GET", "/api/v1/webhook-endpoints", { credential: project.testKey });
    expect(listed.body.data.webhookEndpoints).toEqual([
      expect.objectContaining({ description: "bayad listen (temporary)", enabledEvents: ["checkout.paid"], status: "enabled" }),
    ]);
    const [endpointId] = await endpointIds(api, project.testKey);

    const { checkoutId } = await api.paidCheckout(project.testKey);
    const [delivery] = await deliveriesAbout(receiver, checkoutId);
    const event = verified(delivery!, secret!);
    expect(event).toMatchObject({ type: "checkout.paid", data: { checkoutId } });
    expect(delivery!.headers["webhook-id"]).toBe(event.id);
    // Only what it was told to listen for reached the app.
    expect(receiver.received.every((received) => (JSON.parse(received.body) as { type: string }).type === "checkout.paid")).toBe(true);

    const printed = await listening.line((line) => line.includes(event.id));
    expect(printed).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}checkout\.paid {2}evt_\S+ {2}→ 200$/);

    listening.child.kill("SIGINT");
    expect(await listening.exited).toBe(0);
    expect(listening.lines.at(-1)).toBe(`Stopped. Endpoint ${endpointId} removed.`);
    expect(await endpointIds(api, project.testKey)).toEqual([]);
  });

  it("answers the platform with the app's status, so an event the app fails is retried, and prints JSON lines with --json", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(500);
    const project = await api.newProject();
    listening = startListen(["--forward-to", receiver.url, "--json", "--api-key", project.testKey, "--gateway", api.platform.gatewayUrl]);

    const ready = JSON.parse(await listening.line((line) => line.includes('"ready"')));
    expect(ready).toMatchObject({ kind: "ready", enabledEvents: ["*"], forwardTo: receiver.url });
    expect(ready.secret).toMatch(/^whsec_/);

    const { checkoutId } = await api.paidCheckout(project.testKey);
    const deliveries = await deliveriesAbout(receiver, checkoutId, 2);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([500, 200]);
    const eventId = verified(deliveries[1]!, ready.secret).id;
    expect(verified(deliveries[0]!, ready.secret).id).toBe(eventId);

    await eventually(async () => (listening!.lines.filter((line) => line.includes(eventId)).length === 2 ? true : undefined));
    const printed = listening.lines.filter((line) => line.includes(eventId)).map((line) => JSON.parse(line));
    expect(printed).toEqual([
      { kind: "delivery", at: expect.any(String), eventType: "checkout.paid", eventId, status: 500 },
      { kind: "delivery", at: expect.any(String), eventType: "checkout.paid", eventId, status: 200 },
    ]);
    // The platform recorded the app's answers as the attempts' outcomes.
    const attempts = await api.request("GET", `/api/v1/webhook-endpoints/${ready.webhookEndpointId}/deliveries?eventId=${eventId}`, {
      credential: project.testKey,
    });
    expect(
      attempts.body.data.deliveries
        .map(({ attempt, responseStatusCode }: { attempt: number; responseStatusCode?: number }) => ({ attempt, responseStatusCode }))
        .sort((a: { attempt: number }, b: { attempt: number }) => a.attempt - b.attempt),
    ).toEqual([
      { attempt: 1, responseStatusCode: 500 },
      { attempt: 2, responseStatusCode: 200 },
    ]);

    listening.child.kill("SIGTERM");
    expect(await listening.exited).toBe(0);
    expect(JSON.parse(listening.lines.at(-1)!)).toEqual({ kind: "stopped", webhookEndpointId: ready.webhookEndpointId, deleted: true });
    expect(await endpointIds(api, project.testKey)).toEqual([]);
  });

  it("shows where the payer of an e-wallet intent goes: the redirect page, on the payment_intent.requires_action line", async () => {
    receiver = await startWebhookReceiver();
    const project = await api.newProject();
    listening = startListen(["--forward-to", receiver.url, "--events", "payment_intent.requires_action", "--api-key", project.testKey, "--gateway", api.platform.gatewayUrl]);
    await listening.line((line) => line.startsWith("Ready."));

    const created = await api.request("POST", "/api/v1/payments/intents", {
      body: { referenceId: unique("order"), amount: { amountMinor: 1500_00, currency: "PHP" }, paymentMethod: { type: "gcash" }, returnUrl: "https://shop.example.ph/orders/9" },
      credential: project.testKey,
    });
    expect(created.status).toBe(201);
    const { nextAction } = created.body.data as { nextAction: { url: string } };
    const printed = await listening.line((line) => line.includes("  payment_intent.requires_action  "));
    expect(printed).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}payment_intent\.requires_action {2}evt_\S+ {2}→ 200 {2}/);
    expect(printed.slice(printed.indexOf("  → "))).toBe(`  → 200  (gcash → ${nextAction.url})`);
  });

  it("refuses a live key in one line and registers nothing", async () => {
    const project = await api.newProject();

    const refused = await runCli(process.execPath, [cliPath, "listen", "--forward-to", "http://localhost:3000/webhooks", "--gateway", api.platform.gatewayUrl], {
      env: { PATH: process.env.PATH ?? "", BAYAD_API_KEY: project.liveKey },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);

    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^error: .*test-mode API key/)]);
    expect(await endpointIds(api, project.liveKey)).toEqual([]);
  });

  it("lists the project's events with bayad events list, as JSON with --json", async () => {
    const project = await api.newProject();
    const { checkoutId } = await api.paidCheckout(project.testKey);
    const env = { PATH: process.env.PATH ?? "", BAYAD_API_KEY: project.testKey, BAYAD_URL: api.platform.gatewayUrl };

    // The event is recorded by the webhooks service's consumer, shortly after the payment.
    const listed = await eventually(async () => {
      const { stdout } = await runCli(process.execPath, [cliPath, "events", "list", "--type", "checkout.paid", "--json"], { env });
      const events = JSON.parse(stdout) as Array<{ id: string; type: string; data: { checkoutId: string } }>;
      return events.length > 0 ? events : undefined;
    });
    expect(listed).toEqual([expect.objectContaining({ type: "checkout.paid", data: expect.objectContaining({ checkoutId }) })]);
    const fromApi = await api.request("GET", `/api/v1/events/${listed[0]!.id}`, { credential: project.testKey });
    expect(listed[0]).toEqual(fromApi.body.data);

    const { stdout } = await runCli(process.execPath, [cliPath, "events", "list", "--limit", "50"], { env });
    expect(stdout).toContain(`checkout.paid`);
    expect(stdout.split("\n").find((line) => line.includes(listed[0]!.id))).toMatch(/^\S+Z {2}checkout\.paid +evt_/);
  });
});

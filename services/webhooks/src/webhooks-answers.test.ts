import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { as, newProject, quickEnv, startHarness, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { messageOf, paidCheckoutEvent } from "./test-support/events.js";

/** What an attempt records when the receiver does not simply answer, and what the logs say of attempts. */
describe("attempts without a 2xx", () => {
  let harness: Harness;
  const logLines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString("utf8").split("\n").filter((line) => line !== ""));
        done();
      },
    });
    // One attempt per event, and a short timeout for the receiver that never answers.
    harness = await startHarness({ ...quickEnv, WEBHOOK_RETRY_SCHEDULE: "0s", WEBHOOK_TIMEOUT: "300ms" }, { logger: createLogger("webhooks-test", "info", sink) });
  });
  afterAll(() => harness.close());

  /** Delivers one event to a new endpoint at `url` and answers its one finished attempt. */
  async function attemptAt(url: string) {
    const project = newProject();
    const created = await harness.client.createWebhookEndpoint({ url, enabledEvents: ["*"] }, as(project));
    const endpointId = created.webhookEndpoint!.webhookEndpointId;
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    const [attempt] = await eventually(async () => {
      const listed = (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, as(project, "test", null))).deliveries;
      return listed[0] && listed[0].status !== WebhookDeliveryStatus.PENDING ? listed : undefined;
    });
    return { attempt: attempt!, secret: created.secret, event, endpointId };
  }

  it("does not follow a redirect: a 3xx is a failure", async () => {
    const target = await startWebhookReceiver();
    const redirecting: Server = createServer((_request, response) => response.writeHead(301, { location: target.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const { attempt } = await attemptAt(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`);
      expect(attempt).toMatchObject({ status: WebhookDeliveryStatus.FAILED, responseStatusCode: 301, error: "HTTP 301" });
      expect(target.received).toEqual([]);
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
      await target.close();
    }
  });

  it("gives up on a receiver that does not answer within WEBHOOK_TIMEOUT", async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { attempt } = await attemptAt(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`);
      expect(attempt).toMatchObject({ status: WebhookDeliveryStatus.FAILED, error: "timed out after 300ms" });
      expect(attempt.responseStatusCode).toBeUndefined();
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("records a refused connection", async () => {
    const closed = await startWebhookReceiver();
    await closed.close();
    const { attempt } = await attemptAt(closed.url);
    expect(attempt).toMatchObject({ status: WebhookDeliveryStatus.FAILED, error: "ECONNREFUSED" });
  });

  it("logs each attempt with its event, endpoint, attempt and answer, never the secret or the body", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { secret, event, endpointId } = await attemptAt(receiver.url);
      const line = await eventually(() => logLines.find((logged) => logged.includes(event.eventId) && logged.includes("webhook delivered")));
      expect(JSON.parse(line)).toMatchObject({ eventId: event.eventId, webhookEndpointId: endpointId, attempt: 1, responseStatusCode: 200, outcome: "succeeded" });
      const everything = logLines.join("\n");
      expect(everything).not.toContain(secret.slice("whsec_".length));
      expect(everything).not.toContain("t0k3n");
      expect(everything).not.toContain(receiver.url);
    } finally {
      await receiver.close();
    }
  });
});

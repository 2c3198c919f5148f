import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's webhooks pages in Chromium, against a started platform: a consumer endpoint
 * that answers 500 shows its failed delivery (response code, next attempt), the operator
 * redelivers the event once the receiver is fixed and sees the new attempt succeed, and disables
 * (after a confirm) and enables the endpoint.
 */

const endpoints = "/api/v1/webhook-endpoints";
// The first attempt at once; the retry an hour later, so only a redelivery can succeed in the test.
const env = { WEBHOOK_RETRY_SCHEDULE: "0s,1h", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };

interface Delivery {
  eventId: string;
  attempt: number;
  status: string;
  redelivery: boolean;
  responseStatusCode?: number;
  nextAttemptAt?: string;
}

describe.skipIf(!chromiumReady("the dashboard webhooks tests"))(`dashboard: webhooks in Chromium (${skipReason})`, () => {
  const suite = browserSuite(() => env);
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
  });

  it("shows a failed delivery, redelivers it to the fixed receiver, and disables and enables the endpoint", async () => {
    const project = await suite.api.newProject(unique("Dashboard webhooks"));
    const created = await suite.api.request("POST", endpoints, {
      body: { url: receiver.url, enabledEvents: ["checkout.paid"], description: "orders service" },
      credential: project.testKey,
    });
    expect(created.status).toBe(201);
    const endpointId = created.body.data.webhookEndpointId as string;

    // The receiver fails the first attempt; the event's delivery is listed as failed, retried in an hour.
    receiver.answers.push(500);
    await suite.api.paidCheckout(project.testKey);
    const failed = await eventually(async () => {
      const listed = await suite.api.request("GET", `${endpoints}/${endpointId}/deliveries`, { credential: project.testKey });
      return (listed.body.data.deliveries as Delivery[]).find((delivery) => delivery.status === "failed");
    }, 20_000);
    expect(failed).toMatchObject({ attempt: 1, responseStatusCode: 500 });
    const eventId = failed.eventId;

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, "/webhooks");
      await page.getByRole("heading", { name: "Webhooks" }).waitFor();
      const endpointRow = page.getByRole("row").filter({ hasText: receiver.url });
      await endpointRow.filter({ hasText: /enabled/i }).filter({ hasText: "checkout.paid" }).waitFor();
      await endpointRow.click();

      // The failure stands out: its status, the receiver's answer, and when the next attempt is due.
      await page.getByRole("heading", { name: "Webhook endpoint" }).waitFor();
      const deliveries = page.getByRole("table", { name: "Delivery attempts" });
      const failedRow = deliveries.getByRole("row").filter({ hasText: eventId }).filter({ hasText: "#1" });
      await failedRow.filter({ hasText: /failed/i }).filter({ hasText: "HTTP 500" }).waitFor();
      expect(failed.nextAttemptAt).toBeDefined();
      expect(await failedRow.locator("time").count()).toBeGreaterThanOrEqual(2); // attempted, next attempt
      await page.getByText("1 failed attempt among those shown.").waitFor();

      // The receiver is fixed; redeliver the event: the new attempt is pending, then succeeds.
      await deliveries.getByRole("button", { name: `Redeliver ${eventId}` }).click();
      await page.getByRole("status").filter({ hasText: "Redelivery scheduled" }).filter({ hasText: eventId }).waitFor();
      await deliveries.getByRole("row").filter({ hasText: "(redelivery)" }).filter({ hasText: eventId }).filter({ hasText: /succeeded/i }).waitFor();
      expect(receiver.deliveriesOf(eventId).map((delivery) => delivery.status)).toEqual([500, 200]);
      const listed = await suite.api.request("GET", `${endpoints}/${endpointId}/deliveries?eventId=${eventId}`, { credential: project.testKey });
      expect((listed.body.data.deliveries as Delivery[]).filter((delivery) => delivery.redelivery).map(({ status }) => status)).toEqual(["succeeded"]);

      // Disable asks first; cancelling leaves the endpoint enabled.
      await page.getByRole("button", { name: "Disable" }).click();
      await page.getByRole("group", { name: "Disable" }).getByRole("button", { name: "Cancel" }).click();
      expect((await suite.api.request("GET", `${endpoints}/${endpointId}`, { credential: project.testKey })).body.data.status).toBe("enabled");
      await page.getByRole("button", { name: "Disable" }).click();
      await page.getByRole("button", { name: "Yes, disable" }).click();
      await page.getByRole("button", { name: "Enable" }).waitFor();
      await page.getByLabel("Endpoint", { exact: true }).getByText("disabled", { exact: true }).waitFor();
      expect((await suite.api.request("GET", `${endpoints}/${endpointId}`, { credential: project.testKey })).body.data.status).toBe("disabled");

      // A disabled endpoint refuses a redelivery: the gateway's error is shown.
      await deliveries.getByRole("button", { name: `Redeliver ${eventId}` }).first().click();
      await page.getByRole("alert").filter({ hasText: "INVALID_STATE_TRANSITION" }).waitFor();

      await page.getByRole("button", { name: "Enable" }).click();
      await page.getByRole("button", { name: "Disable" }).waitFor();
      await page.getByLabel("Endpoint", { exact: true }).getByText("enabled", { exact: true }).waitFor();
      expect((await suite.api.request("GET", `${endpoints}/${endpointId}`, { credential: project.testKey })).body.data.status).toBe("enabled");
    });
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { eventually, expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * listEvents' `resourceId` filter over HTTP: the events about one resource (a payment's
 * timeline, a refund's events, an endpoint's test events), bound into the cursor.
 */

const events = "/api/v1/events";

interface ListedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

let api: TestPlatform;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startTestPlatform({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

const list = (query: string, credential: string) => api.request("GET", `${events}?${query}`, { credential });

/** Every event the filter `query` answers, in pages of one (to cross page boundaries). */
async function walk(query: string, credential: string): Promise<ListedEvent[]> {
  const all: ListedEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(`${query}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, credential);
    expect(page.status).toBe(200);
    all.push(...(page.body.data.events as ListedEvent[]));
    cursor = page.body.data.nextCursor as string | undefined;
  } while (cursor);
  return all;
}

/** Waits until the project's events include one of `type` whose data holds `id`. */
function listed(credential: string, type: string, id: string) {
  return eventually(async () => {
    const page = await list("limit=100", credential);
    const found = (page.body.data.events as ListedEvent[]).find((event) => event.type === type && Object.values(event.data).includes(id));
    return found ?? undefined;
  }, 20_000);
}

/** Two paid checkouts, a succeeded refund of the first, and one endpoint sent three test events and another one: all listed. */
async function history(credential: string) {
  const first = await api.paidCheckout(credential);
  const second = await api.paidCheckout(credential);
  const refund = await api.request("POST", "/api/v1/payments/refunds", {
    credential,
    body: { paymentId: first.checkoutId, amount: { amountMinor: 100_00, currency: "PHP" } },
  });
  expect(refund.status).toBe(201);
  const refundId = refund.body.data.refundId as string;
  expect((await api.request("POST", `/api/v1/payments/test-helpers/refunds/${refundId}/succeed`, { credential })).status).toBe(200);

  const endpoint = async () => {
    const response = await api.request("POST", "/api/v1/webhook-endpoints", { credential, body: { url: receiver.url, enabledEvents: ["invoice.payment_failed"] } });
    expect(response.status).toBe(201);
    return response.body.data.webhookEndpointId as string;
  };
  const [busy, quiet] = [await endpoint(), await endpoint()];
  const tested: string[] = [];
  for (const webhookEndpointId of [busy, busy, busy, quiet]) {
    const sent = await api.request("POST", `/api/v1/webhook-endpoints/${webhookEndpointId}/test`, { credential });
    expect(sent.status).toBe(202);
    tested.push(sent.body.data.event.id as string);
  }
  await listed(credential, "checkout.paid", first.checkoutId);
  await listed(credential, "checkout.paid", second.checkoutId);
  await listed(credential, "refund.succeeded", refundId);
  return { first, second, refundId, busy, quiet, tested };
}

/** Newest first by createdAt, then by id. */
function inListingOrder(a: ListedEvent, b: ListedEvent): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

describe("listEvents by resourceId", () => {
  it("answers only the events about the resource: a payment's, a refund's, an endpoint's, across pages", async () => {
    const project = await api.newProject();
    const { first, second, refundId, busy, quiet, tested } = await history(project.testKey);

    const ofFirst = await walk(`resourceId=${first.checkoutId}`, project.testKey);
    expect(ofFirst.map((event) => [event.type, event.data.checkoutId])).toEqual([["checkout.paid", first.checkoutId]]);
    expect((await walk(`resourceId=${second.checkoutId}`, project.testKey)).map((event) => event.data.checkoutId)).toEqual([second.checkoutId]);
    const ofRefund = await walk(`resourceId=${refundId}`, project.testKey);
    expect(ofRefund.map((event) => [event.type, event.data.refundId])).toEqual([["refund.succeeded", refundId]]);

    const ofBusy = await walk(`resourceId=${busy}`, project.testKey);
    expect(ofBusy.map((event) => event.id).sort()).toEqual(tested.slice(0, 3).sort());
    expect(ofBusy.every((event) => event.type === "webhook.test" && event.data.webhookEndpointId === busy)).toBe(true);
    expect(ofBusy).toEqual([...ofBusy].sort(inListingOrder));
    expect((await walk(`resourceId=${quiet}`, project.testKey)).map((event) => event.id)).toEqual([tested[3]]);

    // With the other filters, and only in the caller's project and environment.
    expect(await walk(`resourceId=${first.checkoutId}&type=refund.succeeded`, project.testKey)).toEqual([]);
    expect((await walk(`resourceId=${first.checkoutId}&type=checkout.paid`, project.testKey)).map((event) => event.id)).toEqual([ofFirst[0]!.id]);
    expect(await walk(`resourceId=${first.checkoutId}`, project.liveKey)).toEqual([]);
    const other = await api.newProject();
    expect(await walk(`resourceId=${first.checkoutId}`, other.testKey)).toEqual([]);
  });

  it("refuses a cursor issued for other filters, naming cursor", async () => {
    const project = await api.newProject();
    const { busy, quiet } = await history(project.testKey);
    const filtered = (await list(`resourceId=${busy}&limit=1`, project.testKey)).body.data.nextCursor as string;
    const unfiltered = (await list("limit=1", project.testKey)).body.data.nextCursor as string;
    expect(filtered).toEqual(expect.any(String));
    expect(unfiltered).toEqual(expect.any(String));

    for (const query of [
      `resourceId=${quiet}&cursor=${encodeURIComponent(filtered)}`,
      `cursor=${encodeURIComponent(filtered)}`,
      `resourceId=${busy}&cursor=${encodeURIComponent(unfiltered)}`,
    ]) {
      const response = await list(`limit=1&${query}`, project.testKey);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details, query).toEqual([expect.stringMatching(/^cursor\b/)]);
    }
    expect((await list(`resourceId=${busy}&limit=1&cursor=${encodeURIComponent(filtered)}`, project.testKey)).status).toBe(200);
  });

  it("refuses an empty or overlong resourceId with a 400 naming it", async () => {
    const project = await api.newProject();
    for (const value of ["", "x".repeat(256)]) {
      const response = await list(`resourceId=${value}`, project.testKey);
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^resourceId\b/)]);
    }
  });
});

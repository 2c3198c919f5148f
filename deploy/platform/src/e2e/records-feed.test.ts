import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CheckoutSchema, CheckoutStatus, EventSchema } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { readRecordsConfig, startRecordsServer } from "@bayad/records-service";
import { eventually, prerequisiteMet, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { withEventCapture } from "../test-support/event-capture.js";
import { deleteJetStreamNamespace, startTcpProxy, type TcpProxy } from "@bayad/events/testing";

/**
 * The payment records feed end to end: services write events to their outboxes, relays publish
 * them to the bus, the records service projects them, and listPaymentRecords pages through them.
 * Runs on the in-process bus always, and on a real NATS JetStream when NATS_URL is set.
 */

const natsUrl = process.env.NATS_URL;
const natsReady = prerequisiteMet("the records feed tests on NATS JetStream", natsUrl ? undefined : "NATS_URL is not set (e.g. nats://127.0.0.1:4222)");

const records = "/api/v1/payments/records";

interface FeedRecord {
  type: string;
  id: string;
  status: string | null;
  amountMinor: string | null;
  relatedResourceId: string | null;
  referenceId: string | null;
}

async function walkFeed(api: TestPlatform, query = "", credential?: string): Promise<FeedRecord[]> {
  const all: FeedRecord[] = [];
  let cursor: string | undefined;
  do {
    const separator = query ? "&" : "";
    const page = await api.request("GET", `${records}?${query}${separator}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { credential });
    expect(page.status).toBe(200);
    all.push(...page.body.data.records);
    cursor = page.body.data.nextCursor;
  } while (cursor);
  return all;
}

/** Waits until the feed shows `id` with `status`. */
function feedShows(api: TestPlatform, id: string, status: string, credential?: string) {
  return eventually(async () => {
    const feed = await walkFeed(api, "", credential);
    const record = feed.find((entry) => entry.id === id);
    return record?.status === status ? record : undefined;
  }, 20_000);
}

/** One resource of each kind moved through its states, through the API. */
async function produceEverything(api: TestPlatform, credential?: string) {
  const post = (path: string, body?: unknown) => api.request("POST", path, { body, credential });
  const checkout = await post("/api/v1/payments/checkouts", {
    referenceId: unique("order"),
    amount: { amountMinor: 1200_00, currency: "PHP" },
    successUrl: "https://shop.example.ph/ok",
    cancelUrl: "https://shop.example.ph/no",
  });
  const checkoutId = checkout.body.data.checkoutId as string;
  await post(`/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`);
  const refund = await post("/api/v1/payments/refunds", { paymentId: checkoutId, amount: { amountMinor: 200_00, currency: "PHP" } });
  const refundId = refund.body.data.refundId as string;
  await post(`/api/v1/payments/test-helpers/refunds/${refundId}/succeed`);

  const intent = await post("/api/v1/payments/intents", { referenceId: unique("intent"), amount: { amountMinor: 300_00, currency: "PHP" } });
  const paymentIntentId = intent.body.data.paymentIntentId as string;
  await post(`/api/v1/payments/intents/${paymentIntentId}/confirm`);

  const plan = await post("/api/v1/payments/plans", { name: "Feed plan", amount: 499_00, interval: "monthly" });
  const customer = await post("/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
  const customerId = customer.body.data.customerId as string;
  const subscription = await post("/api/v1/payments/subscriptions", {
    customerId,
    referenceId: unique("membership"),
    priceId: plan.body.data.planId,
  });
  const subscriptionId = subscription.body.data.subscriptionId as string;
  const invoices = await api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`, { credential });
  const invoiceId = invoices.body.data[0].invoiceId as string;
  await post(`/api/v1/payments/test-helpers/invoices/${invoiceId}/pay`);

  const link = await post("/api/v1/payments/payment-links", {
    referenceId: unique("link"),
    amount: { amountMinor: 750_00, currency: "PHP" },
    description: "Deposit",
  });
  const paymentLinkId = link.body.data.paymentLinkId as string;
  await api.request("PATCH", `/api/v1/payments/payment-links/${paymentLinkId}`, { body: { archive: true }, credential });

  return { checkoutId, refundId, paymentIntentId, customerId, subscriptionId, invoiceId, paymentLinkId };
}

async function expectEverythingInFeed(api: TestPlatform, ids: Awaited<ReturnType<typeof produceEverything>>, credential?: string) {
  // The last event of every resource has arrived once the payment link reads archived and the
  // others read their final status.
  await feedShows(api, ids.paymentLinkId, "archived", credential);
  await feedShows(api, ids.refundId, "succeeded", credential);
  await feedShows(api, ids.invoiceId, "paid", credential);
  await feedShows(api, ids.subscriptionId, "active", credential);
  await feedShows(api, ids.checkoutId, "paid", credential);
  await feedShows(api, ids.paymentIntentId, "processing", credential);
  const feed = await walkFeed(api, "", credential);
  const byId = new Map(feed.map((record) => [record.id, record]));
  expect(byId.get(ids.checkoutId)).toMatchObject({ type: "checkout", amountMinor: "120000", status: "paid" });
  expect(byId.get(ids.refundId)).toMatchObject({ type: "refund", amountMinor: "-20000", relatedResourceId: ids.checkoutId });
  expect(byId.get(ids.paymentIntentId)).toMatchObject({ type: "payment_intent", amountMinor: "30000" });
  expect(byId.get(ids.subscriptionId)).toMatchObject({ type: "subscription", relatedResourceId: ids.customerId, amountMinor: "49900" });
  expect(byId.get(ids.invoiceId)).toMatchObject({ type: "invoice", relatedResourceId: ids.subscriptionId, amountMinor: "49900" });
  expect(byId.get(ids.paymentLinkId)).toMatchObject({ type: "payment_link", amountMinor: "75000", status: "archived" });
  // Customers and plans are not payment records; every resource appears once.
  expect(byId.has(ids.customerId)).toBe(false);
  expect(new Set(feed.map((record) => record.id)).size).toBe(feed.length);
  return feed;
}

describe("records feed on the in-process bus", () => {
  let api: TestPlatform;
  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api?.close());

  it("shows every payment resource of payments, billing and links with its latest status", async () => {
    const project = await api.newProject();
    const ids = await produceEverything(api, project.testKey);
    await expectEverythingInFeed(api, ids, project.testKey);
    // Another project sees none of them.
    const other = await walkFeed(api);
    expect(other.map((record) => record.id)).not.toContain(ids.checkoutId);
  });

  it("filters by type and status", async () => {
    const project = await api.newProject();
    const ids = await produceEverything(api, project.testKey);
    await expectEverythingInFeed(api, ids, project.testKey);
    const refunds = await walkFeed(api, "type=refund", project.testKey);
    expect(refunds.map((record) => record.id)).toEqual([ids.refundId]);
    const archived = await walkFeed(api, "status=archived", project.testKey);
    expect(archived.map((record) => record.id)).toEqual([ids.paymentLinkId]);
  });
});

describe("records feed pagination", () => {
  let api: TestPlatform;
  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api?.close());

  /** A checkout event as the payments service writes it, published straight to the bus. */
  function publishCheckout(projectId: string, createdAt: Date) {
    const checkoutId = `chk_${randomBytes(12).toString("hex")}`;
    const event = create(EventSchema, {
      eventId: `evt_${randomBytes(12).toString("hex")}`,
      type: "payments.checkout.pending",
      projectId,
      environment: "test",
      resourceId: checkoutId,
      aggregateVersion: 1,
      occurredAt: timestampFromDate(createdAt),
      snapshot: {
        case: "checkout",
        value: create(CheckoutSchema, {
          checkoutId,
          referenceId: checkoutId,
          status: CheckoutStatus.PENDING,
          amount: { amountMinor: 100n, currency: "PHP" },
          aggregateVersion: 1,
          createdAt: timestampFromDate(createdAt),
        }),
      },
    });
    return api.platform.bus
      .publish({ subject: "bayad.events.payments.checkout.pending", eventId: event.eventId, payload: toBinary(EventSchema, event) })
      .then(() => checkoutId);
  }

  it("walks thousands of records across pages while records are being added, finding each exactly once", async () => {
    const project = await api.newProject();
    const start = Date.now() - 3_600_000;
    const existing = new Set<string>();
    // Many records share a createdAt (ten per millisecond), so the order's tie-break is exercised.
    for (let i = 0; i < 2500; i += 1) existing.add(await publishCheckout(project.projectId, new Date(start + Math.floor(i / 10))));
    await eventually(async () => ((await walkFeed(api, "", project.testKey)).length >= 2500 ? true : undefined), 60_000);

    let adding = true;
    const added = (async () => {
      let at = start;
      while (adding) {
        await publishCheckout(project.projectId, new Date((at += 7)));
        // The in-process bus accepts at once: yield, so the walk's requests get their turn.
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await api.request("GET", `${records}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { credential: project.testKey });
      for (const record of page.body.data.records as FeedRecord[]) seen.set(record.id, (seen.get(record.id) ?? 0) + 1);
      cursor = page.body.data.nextCursor;
      pages += 1;
    } while (cursor);
    adding = false;
    await added;

    expect(pages).toBeGreaterThanOrEqual(25);
    for (const id of existing) expect(seen.get(id), id).toBe(1);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
  }, 120_000);

  it("refuses a cursor that was tampered with or issued for other filters, naming cursor", async () => {
    const project = await api.newProject();
    for (let i = 0; i < 3; i += 1) await publishCheckout(project.projectId, new Date(Date.now() - i * 1000));
    await eventually(async () => ((await walkFeed(api, "", project.testKey)).length >= 3 ? true : undefined));
    const first = await api.request("GET", `${records}?limit=1`, { credential: project.testKey });
    const cursor = first.body.data.nextCursor as string;
    expect(cursor).toBeTruthy();

    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("AA") ? "BB" : "AA"}`;
    for (const query of [`cursor=${encodeURIComponent(tampered)}`, `type=refund&cursor=${encodeURIComponent(cursor)}`, "cursor=not-a-cursor"]) {
      const response = await api.request("GET", `${records}?limit=1&${query}`, { credential: project.testKey });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^cursor\b/)]);
    }
  });

  it("refuses bad filters with a 400 naming the parameter", async () => {
    for (const [query, parameter] of [
      ["limit=0", "limit"],
      ["limit=201", "limit"],
      ["type=customer", "type"],
      ["createdAfter=yesterday", "createdAfter"],
      ["createdBefore=2026-13-01T00:00:00Z", "createdBefore"],
    ] as const) {
      const response = await api.request("GET", `${records}?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.details).toEqual([expect.stringMatching(new RegExp(`^${parameter}\\b`))]);
    }
  });

  it("createdAfter is inclusive and createdBefore exclusive", async () => {
    const project = await api.newProject();
    const at = new Date(Date.now() - 10_000);
    const id = await publishCheckout(project.projectId, at);
    await eventually(async () => ((await walkFeed(api, "", project.testKey)).length >= 1 ? true : undefined));
    const iso = encodeURIComponent(at.toISOString());
    expect((await walkFeed(api, `createdAfter=${iso}`, project.testKey)).map((r) => r.id)).toEqual([id]);
    expect(await walkFeed(api, `createdBefore=${iso}`, project.testKey)).toEqual([]);
    // Half a millisecond later: the record is before that instant, not at or after it.
    const later = encodeURIComponent(`${at.toISOString().slice(0, -1)}5Z`);
    expect((await walkFeed(api, `createdBefore=${later}`, project.testKey)).map((r) => r.id)).toEqual([id]);
    expect(await walkFeed(api, `createdAfter=${later}`, project.testKey)).toEqual([]);
  });
});

describe.skipIf(!natsReady)("records feed on NATS JetStream (needs NATS_URL)", () => {
  let proxy: TcpProxy;
  let api: TestPlatform;
  // Its own stream on the shared NATS server, so parallel runs never consume each other's events.
  const namespace = unique("e2e").replace(/-/g, "");

  beforeAll(async () => {
    // The platform reaches NATS through a proxy the tests can cut, to make NATS unavailable.
    proxy = await startTcpProxy(natsUrl!);
    // Over HTTP/2: a records service restarted on its port is reachable again, as when deployed.
    api = await startTestPlatform({ NATS_URL: proxy.url, EVENTS_NAMESPACE: namespace, PLATFORM_RPC: "http2" });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await proxy?.close();
    await deleteJetStreamNamespace({ url: natsUrl!, namespace });
  });

  it("shows every resource of payments, billing and links with its latest status", async () => {
    const project = await api.newProject();
    await expectEverythingInFeed(api, await produceEverything(api, project.testKey), project.testKey);
  }, 60_000);

  it("records service stopped while events are produced, then restarted: every record appears exactly once", async () => {
    const project = await api.newProject();
    const { platform } = api;
    const port = platform.services.records.port;
    await platform.services.records.close();
    const ids = await produceEverything(api, project.testKey);
    platform.services.records = await startRecordsServer({
      store: platform.stores.records,
      bus: platform.bus,
      config: readRecordsConfig({ RECORDS_CURSOR_SECRET: platform.recordsCursorSecret }),
      logger: createLogger("records", "silent"),
      port,
    });
    const feed = await expectEverythingInFeed(api, ids, project.testKey);
    expect(feed).toHaveLength(6);
  }, 60_000);

  it("NATS unavailable while services write: writes succeed, events arrive once NATS is back", async () => {
    const project = await api.newProject();
    await proxy.cut();
    try {
      const ids = await produceEverything(api, project.testKey);
      // Every write answered; nothing could be published meanwhile.
      const unpublished = await api.platform.stores.payments.collection({ name: "outbox" }).count({});
      expect(unpublished).toBeGreaterThan(0);
      await proxy.restore();
      const feed = await expectEverythingInFeed(api, ids, project.testKey);
      expect(feed).toHaveLength(6);
    } finally {
      await proxy.restore();
    }
  }, 90_000);

  it("a duplicate publish and an out-of-order redelivery change nothing", async () => {
    const project = await api.newProject();
    const { ids, events } = await withEventCapture(api.platform.bus, async (captured) => {
      const ids = await produceEverything(api, project.testKey);
      await expectEverythingInFeed(api, ids, project.testKey);
      return { ids, events: await captured.publishedThrough(ids.paymentLinkId, 2) };
    });
    expect(events.map((captured) => captured.event.aggregateVersion)).toEqual([1, 2]);
    // The latest event again, under its own id (JetStream drops it), and the first event again
    // under a new id, as a redelivery arriving after a newer version would look.
    const [first, latest] = events.map((captured) => captured.message);
    await api.platform.bus.publish(latest!);
    await api.platform.bus.publish({ ...first!, eventId: `${first!.eventId}-again` });
    // A marker event published after both tells when the consumer has passed them.
    const marker = await api.request("POST", "/api/v1/payments/payment-links", {
      credential: project.testKey,
      body: { referenceId: unique("marker"), amount: { amountMinor: 100_00, currency: "PHP" }, description: "Marker" },
    });
    await feedShows(api, marker.body.data.paymentLinkId, "active", project.testKey);
    const feed = await walkFeed(api, "type=payment_link", project.testKey);
    expect(feed.find((record) => record.id === ids.paymentLinkId)?.status).toBe("archived");
    expect(feed.filter((record) => record.id === ids.paymentLinkId)).toHaveLength(1);
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { captureEvents, expectMovesPublished, type EventCapture } from "../test-support/event-capture.js";

/** Payment links over real HTTP, through the gateway to the links service. */

const links = "/api/v1/payments/payment-links";
const payHelper = (id: string) => `/api/v1/payments/test-helpers/payment-links/${id}/pay`;

let api: TestPlatform;
let captured: EventCapture;

beforeAll(async () => {
  api = await startTestPlatform();
  captured = await captureEvents(api.platform.bus);
});

afterAll(async () => {
  await captured?.stop();
  await api?.close();
});

function validLink(overrides: Record<string, unknown> = {}) {
  return {
    referenceId: unique("link"),
    amount: { amountMinor: 1500_00, currency: "PHP" },
    description: "Catering deposit",
    remarks: "Due Friday",
    metadata: { order: "77" },
    ...overrides,
  };
}

async function createLink(overrides: Record<string, unknown> = {}, credential?: string) {
  const created = await api.request("POST", links, { body: validLink(overrides), credential });
  expect(created.status).toBe(201);
  return created.body.data as Record<string, any> & { paymentLinkId: string; url: string };
}

const stored = () => api.platform.stores.links.collection({ name: "payment_links" });

describe("createPaymentLink", () => {
  it("creates an active link with a hosted page, a provider reference number and service_reference_id", async () => {
    const body = validLink();
    const created = await api.request("POST", links, { body });
    expect(created.status).toBe(201);
    const link = created.body.data;
    expect(link).toMatchObject({
      referenceId: body.referenceId,
      amount: body.amount,
      description: "Catering deposit",
      remarks: "Due Friday",
      status: "active",
      active: true,
      archived: false,
      metadata: { order: "77", service_reference_id: body.referenceId },
    });
    expect(link.paymentLinkId).toMatch(/^link_[A-Za-z0-9]{24}$/);
    expect(link.referenceNumber).toMatch(/^[A-Z0-9]{7}$/);
    expect(new URL(link.url).origin).toBe(api.platform.gatewayUrl);
    expect(link.createdAt).toBe(link.updatedAt);

    const page = await fetch(link.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(link.referenceNumber);

    await expectMovesPublished(captured, link.paymentLinkId, [["bayad.events.links.payment_link.active", 1]]);
  });

  it("sets service_reference_id itself, replacing a supplied value", async () => {
    const link = await createLink({ metadata: { service_reference_id: "forged" } });
    expect(link.metadata).toEqual({ service_reference_id: link.referenceId });
  });

  it("replays the original response for the same Idempotency-Key and body", async () => {
    const body = validLink();
    const first = await api.request("POST", links, { body, idempotencyKey: "link-replay-key-0001" });
    const again = await api.request("POST", links, { body, idempotencyKey: "link-replay-key-0001" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(await stored().count({ referenceId: body.referenceId })).toBe(1);
  });

  it("refuses a second link with the same referenceId: 409 naming referenceId", async () => {
    const first = await createLink();
    const second = await api.request("POST", links, { body: validLink({ referenceId: first.referenceId }) });
    expectError(second, 409, "RESOURCE_ALREADY_EXISTS");
    expect(second.body.error.details).toEqual([expect.stringMatching(/^referenceId\b/)]);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["no referenceId", { referenceId: undefined }, "referenceId"],
    ["an empty referenceId", { referenceId: "" }, "referenceId"],
    ["a 256-character referenceId", { referenceId: "r".repeat(256) }, "referenceId"],
    ["no description", { description: undefined }, "description"],
    ["an empty description", { description: "" }, "description"],
    ["a 256-character description", { description: "d".repeat(256) }, "description"],
    ["a 256-character remarks", { remarks: "r".repeat(256) }, "remarks"],
    ["no amount", { amount: undefined }, "amount"],
    ["a zero amount", { amount: { amountMinor: 0, currency: "PHP" } }, "amount.amountMinor"],
    ["a fractional amount", { amount: { amountMinor: 10.5, currency: "PHP" } }, "amount.amountMinor"],
    ["a USD amount", { amount: { amountMinor: 100, currency: "USD" } }, "amount.currency"],
    ["a metadata value that is a number", { metadata: { order: 77 } }, "metadata"],
    ["an unknown field", { colour: "red" }, "colour"],
  ];
  it.each(invalid)("refuses %s with a 400 naming the field, writing nothing", async (_name, overrides, field) => {
    const before = await stored().count({});
    const response = await api.request("POST", links, { body: validLink(overrides) });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
    expect(await stored().count({})).toBe(before);
  });

  it("answers 409 PROVIDER_NOT_CONFIGURED in live mode and writes nothing", async () => {
    const project = await api.newProject();
    const before = await stored().count({});
    const response = await api.request("POST", links, { body: validLink(), credential: project.liveKey });
    expectError(response, 409, "PROVIDER_NOT_CONFIGURED");
    expect(await stored().count({})).toBe(before);
  });
});

describe("listPaymentLinks and getPaymentLink", () => {
  it("list only the caller's own links, newest first", async () => {
    const project = await api.newProject();
    const first = await createLink({}, project.testKey);
    const second = await createLink({}, project.testKey);
    await createLink();

    const listed = await api.request("GET", links, { credential: project.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((link: { paymentLinkId: string }) => link.paymentLinkId)).toEqual([second.paymentLinkId, first.paymentLinkId]);

    const read = await api.request("GET", `${links}/${first.paymentLinkId}`, { credential: project.testKey });
    expect(read.body.data).toEqual(first);
  });

  it("answer 404 for an unknown link and for another project's", async () => {
    const other = await api.newProject();
    const theirs = await createLink({}, other.testKey);
    expectError(await api.request("GET", `${links}/link_doesnotexist`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.request("GET", `${links}/${theirs.paymentLinkId}`), 404, "RESOURCE_NOT_FOUND");
    const listed = await api.request("GET", links);
    expect(listed.body.data.map((link: { paymentLinkId: string }) => link.paymentLinkId)).not.toContain(theirs.paymentLinkId);
  });
});

describe("setPaymentLinkArchived", () => {
  it("archives and unarchives, updating status, active, archived and updatedAt", async () => {
    const link = await createLink();
    const archived = await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true } });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ status: "archived", active: false, archived: true });
    expect(Date.parse(archived.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(link.updatedAt));

    const restored = await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: false } });
    expect(restored.body.data).toMatchObject({ status: "active", active: true, archived: false });

    await expectMovesPublished(captured, link.paymentLinkId, [
      ["bayad.events.links.payment_link.active", 1],
      ["bayad.events.links.payment_link.archived", 2],
      ["bayad.events.links.payment_link.active", 3],
    ]);
  });

  it("returns the link unchanged when it already has the asked state", async () => {
    const link = await createLink();
    const same = await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: false } });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(link);
    // No event for the no-op: the next change is the link's second version.
    await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true } });
    await expectMovesPublished(captured, link.paymentLinkId, [
      ["bayad.events.links.payment_link.active", 1],
      ["bayad.events.links.payment_link.archived", 2],
    ]);
  });

  it("requires an Idempotency-Key and a boolean archive", async () => {
    const link = await createLink();
    expectError(
      await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true }, idempotencyKey: null }),
      400,
      "IDEMPOTENCY_KEY_REQUIRED",
    );
    const bad = await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: "yes" } });
    expectError(bad, 400, "VALIDATION_FAILED");
    expect(bad.body.error.details).toEqual([expect.stringMatching(/^archive\b/)]);
    expectError(await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: {} }), 400, "VALIDATION_FAILED");
    expect((await api.request("GET", `${links}/${link.paymentLinkId}`)).body.data.status).toBe("active");
  });

  it("answers 404 for an unknown link and for another project's", async () => {
    const other = await api.newProject();
    const theirs = await createLink({}, other.testKey);
    expectError(await api.request("PATCH", `${links}/link_doesnotexist`, { body: { archive: true } }), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.request("PATCH", `${links}/${theirs.paymentLinkId}`, { body: { archive: true } }), 404, "RESOURCE_NOT_FOUND");
    expect((await api.request("GET", `${links}/${theirs.paymentLinkId}`, { credential: other.testKey })).body.data.status).toBe("active");
  });
});

describe("paying a link (test helper)", () => {
  it("marks the link paid; a paid link cannot be archived or paid again", async () => {
    const link = await createLink();
    const paid = await api.request("POST", payHelper(link.paymentLinkId));
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: "paid", active: false, archived: false });
    expectError(await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true } }), 409, "INVALID_STATE_TRANSITION");
    expectError(await api.request("POST", payHelper(link.paymentLinkId)), 409, "INVALID_STATE_TRANSITION");
    // Not archived is the archive state it has: the link comes back unchanged.
    const unarchived = await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: false } });
    expect(unarchived.status).toBe(200);
    expect(unarchived.body.data).toEqual(paid.body.data);
  });

  it("refuses to pay an archived link", async () => {
    const link = await createLink();
    await api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true } });
    expectError(await api.request("POST", payHelper(link.paymentLinkId)), 409, "INVALID_STATE_TRANSITION");
    expect((await api.request("GET", `${links}/${link.paymentLinkId}`)).body.data.status).toBe("archived");
  });

  it("decline scenario: a 1002-centavo payment is declined and the link stays active", async () => {
    const link = await createLink({ amount: { amountMinor: 1002, currency: "PHP" } });
    const declined = await api.request("POST", payHelper(link.paymentLinkId));
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe("active");
  });

  it("is test mode only, and 404 for another project's link", async () => {
    const project = await api.newProject();
    const link = await createLink();
    expectError(await api.request("POST", payHelper(link.paymentLinkId), { credential: project.liveKey }), 403, "TEST_MODE_ONLY");
    expectError(await api.request("POST", payHelper(link.paymentLinkId), { credential: project.testKey }), 404, "RESOURCE_NOT_FOUND");
  });
});

describe("hosted payment-link page", () => {
  it("answers 404 without the link's page token", async () => {
    const link = await createLink();
    const url = new URL(link.url);
    url.searchParams.set("token", "wrong");
    expect((await fetch(url)).status).toBe(404);
    const pay = await fetch(`${url.origin}${url.pathname}/pay?token=wrong`, { method: "POST" });
    expect(pay.status).toBe(404);
    expect((await api.request("GET", `${links}/${link.paymentLinkId}`)).body.data.status).toBe("active");
  });

  it("pays the link when the payer presses pay", async () => {
    const link = await createLink();
    const url = new URL(link.url);
    const paid = await fetch(`${url.origin}${url.pathname}/pay${url.search}`, { method: "POST" });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain("Payment successful");
    expect((await api.request("GET", `${links}/${link.paymentLinkId}`)).body.data.status).toBe("paid");
  });
});

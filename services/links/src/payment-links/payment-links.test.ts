import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EventSchema } from "@bayad/proto";
import { fromStoredMetadata } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider } from "@bayad/provider";
import { createPaymentLinksRepository } from "./payment-links-repository.js";
import {
  createPaymentLink,
  getHostedPaymentLink,
  getPaymentLink,
  listPaymentLinks,
  setPaymentLinkArchived,
  simulatePaymentLinkPayment,
  submitHostedPaymentLink,
  type PaymentLinksDeps,
} from "./payment-links.js";
import { createTestStore } from "@bayad/store/testing";

async function setup() {
  const store = createTestStore();
  // A clock that moves one second per reading, so "newest first" is unambiguous.
  let tick = Date.parse("2030-01-01T00:00:00.000Z");
  const deps: PaymentLinksDeps = {
    store,
    repository: createPaymentLinksRepository(store),
    outbox: createOutbox(store, "links"),
    providers: { test: createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }) },
    now: () => new Date((tick += 1000)),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  const links = store.collection({ name: "payment_links" });
  const eventsOf = async (resourceId: string) =>
    (await outbox.find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((e) => [e.subject, e.aggregateVersion]);
  return { store, deps, outbox, links, eventsOf };
}

let keys = 0;
const caller = (overrides: { projectId?: string; environment?: "test" | "live"; idempotencyKey?: string } = {}) => {
  keys += 1;
  return {
    projectId: "prj_a",
    environment: "test" as const,
    correlationId: "c",
    idempotencyKey: `key-${String(keys).padStart(16, "0")}`,
    ...overrides,
  };
};
const input = (referenceId = "inv-1", amountMinor = 1200_00, metadata: Record<string, string> = {}) => ({
  referenceId,
  amountMinor,
  description: "Catering deposit",
  remarks: "Due Friday",
  metadata,
});

describe("createPaymentLink", () => {
  it("writes an active link with its hosted page and one payment_link.active event", async () => {
    const { deps, outbox, eventsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    expect(link).toMatchObject({ status: "active", aggregateVersion: 1, amountMinor: 1200_00, currency: "PHP", remarks: "Due Friday" });
    expect(link._id).toMatch(/^link_[A-Za-z0-9]{24}$/);
    expect(link.url).toBe(`/sandbox/payment-links/${link._id}?token=${link.pageToken}`);
    expect(link.referenceNumber).toMatch(/^[A-Z2-9]{7}$/);
    expect(link.providerReference).toMatch(/^pl_sandbox_/);
    expect(link.updatedAt).toEqual(link.createdAt);
    expect(await getPaymentLink(deps, caller(), link._id)).toEqual(link);

    expect(await eventsOf(link._id)).toEqual([["bayad.events.links.payment_link.active", 1]]);
    const [stored] = await outbox.find({ resourceId: link._id });
    const event = fromBinary(EventSchema, Buffer.from(stored!.payload, "base64"));
    expect(event.type).toBe("links.payment_link.active");
    expect(event.snapshot.case).toBe("paymentLink");
    if (event.snapshot.case !== "paymentLink") return;
    expect(event.snapshot.value).toMatchObject({ paymentLinkId: link._id, active: true, archived: false, url: link.url });
    expect(event.snapshot.value.amount?.amountMinor).toBe(1200_00n);
  });

  it("sets service_reference_id to the referenceId, replacing a supplied value", async () => {
    const { deps } = await setup();
    const plain = await createPaymentLink(deps, caller(), input("inv-2"));
    expect(fromStoredMetadata(plain.metadata)).toEqual({ service_reference_id: "inv-2" });
    const supplied = await createPaymentLink(deps, caller(), input("inv-3", 500_00, { service_reference_id: "mine", order: "77" }));
    expect(fromStoredMetadata(supplied.metadata)).toEqual({ service_reference_id: "inv-3", order: "77" });
  });

  it("returns the same link, and writes no second event, for a repeated Idempotency-Key", async () => {
    const { deps, outbox, links } = await setup();
    const once = caller();
    const first = await createPaymentLink(deps, once, input("inv-4"));
    const again = await createPaymentLink(deps, once, input("inv-4"));
    expect(again).toEqual(first);
    expect(await links.count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("creates one link from 20 concurrent calls with one key", async () => {
    const { deps, outbox, links } = await setup();
    const once = caller();
    const results = await Promise.all(Array.from({ length: 20 }, () => createPaymentLink(deps, once, input("inv-5"))));
    expect(new Set(results.map((link) => link._id)).size).toBe(1);
    expect(await links.count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("refuses a second link with the same referenceId and writes nothing", async () => {
    const { deps, outbox, links } = await setup();
    await createPaymentLink(deps, caller(), input("inv-6"));
    await expect(createPaymentLink(deps, caller(), input("inv-6"))).rejects.toMatchObject({
      code: "RESOURCE_ALREADY_EXISTS",
      details: ["referenceId: a payment link with this reference already exists"],
    });
    expect(await links.count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("refuses concurrent links with one referenceId but different keys, keeping one", async () => {
    const { deps, outbox, links } = await setup();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => createPaymentLink(deps, caller(), input("inv-7"))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "RESOURCE_ALREADY_EXISTS" });
    expect(await links.count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("answers PROVIDER_NOT_CONFIGURED in live mode and writes nothing", async () => {
    const { deps, outbox, links } = await setup();
    await expect(createPaymentLink(deps, caller({ environment: "live" }), input())).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONFIGURED",
    });
    expect(await links.count({})).toBe(0);
    expect(await outbox.count({})).toBe(0);
  });
});

describe("listPaymentLinks", () => {
  it("lists only the caller's project and environment, newest first", async () => {
    const { deps } = await setup();
    const first = await createPaymentLink(deps, caller(), input("l-1"));
    const second = await createPaymentLink(deps, caller(), input("l-2"));
    await createPaymentLink(deps, caller({ projectId: "prj_b" }), input("l-3"));
    const listed = await listPaymentLinks(deps, caller());
    expect(listed.map((link) => link._id)).toEqual([second._id, first._id]);
    expect(await listPaymentLinks(deps, caller({ projectId: "prj_c" }))).toEqual([]);
  });
});

describe("another project's link", () => {
  it("is not found by get, setArchived or the test helper", async () => {
    const { deps, outbox } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    const other = caller({ projectId: "prj_b" });
    await expect(getPaymentLink(deps, other, link._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(setPaymentLinkArchived(deps, other, link._id, true)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(simulatePaymentLinkPayment(deps, other, link._id, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect((await getPaymentLink(deps, caller(), link._id)).status).toBe("active");
    expect(await outbox.count({})).toBe(1);
  });
});

describe("setPaymentLinkArchived", () => {
  it("archives and unarchives, each with its event, and moves updatedAt", async () => {
    const { deps, eventsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    const archived = await setPaymentLinkArchived(deps, caller(), link._id, true);
    expect(archived).toMatchObject({ status: "archived", aggregateVersion: 2 });
    expect(archived.updatedAt.getTime()).toBeGreaterThan(link.updatedAt.getTime());
    expect(archived.createdAt).toEqual(link.createdAt);
    const active = await setPaymentLinkArchived(deps, caller(), link._id, false);
    expect(active).toMatchObject({ status: "active", aggregateVersion: 3 });
    expect(await eventsOf(link._id)).toEqual([
      ["bayad.events.links.payment_link.active", 1],
      ["bayad.events.links.payment_link.archived", 2],
      ["bayad.events.links.payment_link.active", 3],
    ]);
  });

  it("returns the link unchanged, writing no event, when it already has the asked state", async () => {
    const { deps, outbox } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    expect(await setPaymentLinkArchived(deps, caller(), link._id, false)).toEqual(link);
    const archived = await setPaymentLinkArchived(deps, caller(), link._id, true);
    expect(await setPaymentLinkArchived(deps, caller(), link._id, true)).toEqual(archived);
    expect(await outbox.count({})).toBe(2);
  });

  it("answers concurrent archives of one link with one move and one event", async () => {
    const { deps, eventsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    const results = await Promise.all(Array.from({ length: 5 }, () => setPaymentLinkArchived(deps, caller(), link._id, true)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill("archived"));
    expect(await eventsOf(link._id)).toHaveLength(2);
  });

  it("refuses to archive a paid link, and returns it unchanged when asked to leave it unarchived", async () => {
    const { deps, outbox } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    const paid = await simulatePaymentLinkPayment(deps, caller(), link._id, "pay");
    await expect(setPaymentLinkArchived(deps, caller(), link._id, true)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await setPaymentLinkArchived(deps, caller(), link._id, false)).toEqual(paid);
    expect(await outbox.count({})).toBe(2);
  });
});

describe("simulatePaymentLinkPayment", () => {
  it("pays an active link with its payment_link.paid event", async () => {
    const { deps, eventsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    expect(await simulatePaymentLinkPayment(deps, caller(), link._id, "pay")).toMatchObject({ status: "paid", aggregateVersion: 2 });
    expect((await eventsOf(link._id)).at(-1)).toEqual(["bayad.events.links.payment_link.paid", 2]);
  });

  it("refuses to pay an archived link or a paid one", async () => {
    const { deps } = await setup();
    const archived = await createPaymentLink(deps, caller(), input("a-1"));
    await setPaymentLinkArchived(deps, caller(), archived._id, true);
    await expect(simulatePaymentLinkPayment(deps, caller(), archived._id, "pay")).rejects.toMatchObject({
      code: "INVALID_STATE_TRANSITION",
      message: "A payment link with status archived cannot be paid.",
    });
    const paid = await createPaymentLink(deps, caller(), input("a-2"));
    await simulatePaymentLinkPayment(deps, caller(), paid._id, "pay");
    await expect(simulatePaymentLinkPayment(deps, caller(), paid._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });

  it("leaves the link active, writing nothing, when the payment is declined or fails", async () => {
    const { deps, outbox } = await setup();
    const declined = await createPaymentLink(deps, caller(), input("d-1", 1002));
    expect(await simulatePaymentLinkPayment(deps, caller(), declined._id, "pay")).toEqual(declined);
    const failed = await createPaymentLink(deps, caller(), input("d-2"));
    expect(await simulatePaymentLinkPayment(deps, caller(), failed._id, "fail")).toEqual(failed);
    expect(await outbox.count({})).toBe(2);
    expect((await simulatePaymentLinkPayment(deps, caller(), declined._id, "pay")).status).toBe("active");
  });

  it("is refused to a live-mode caller", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    await expect(simulatePaymentLinkPayment(deps, caller({ environment: "live" }), link._id, "pay")).rejects.toMatchObject({
      code: "TEST_MODE_ONLY",
    });
  });
});

describe("hosted payment link page", () => {
  it("shows and pays the link with its page token", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    expect(await getHostedPaymentLink(deps, link._id, link.pageToken)).toEqual(link);
    expect((await submitHostedPaymentLink(deps, link._id, link.pageToken, "pay")).status).toBe("paid");
  });

  it("is not found with a wrong or missing token, or for an unknown link", async () => {
    const { deps, outbox } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    const wrong = `${link.pageToken.slice(0, -1)}${link.pageToken.endsWith("A") ? "B" : "A"}`;
    for (const token of [wrong, ""]) {
      await expect(getHostedPaymentLink(deps, link._id, token)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND", message: "No such payment page." });
      await expect(submitHostedPaymentLink(deps, link._id, token, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    }
    await expect(getHostedPaymentLink(deps, "link_unknown", link.pageToken)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect(await outbox.count({})).toBe(1);
  });

  it("does not serve a live-mode link", async () => {
    const { deps } = await setup();
    const live = { ...deps, providers: { test: deps.providers.test, live: deps.providers.test } };
    const link = await createPaymentLink(live, caller({ environment: "live" }), input());
    await expect(getHostedPaymentLink(live, link._id, link.pageToken)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });

  it("refuses to pay an archived link", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller(), input());
    await setPaymentLinkArchived(deps, caller(), link._id, true);
    await expect(submitHostedPaymentLink(deps, link._id, link.pageToken, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });
});

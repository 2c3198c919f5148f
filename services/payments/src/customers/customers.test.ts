import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EventSchema } from "@bayad/proto";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createCustomer, getCustomer } from "./customers.js";
import { createCustomersRepository } from "./customers-repository.js";
import { createTestStore } from "@bayad/store/testing";

async function setup() {
  const store = createTestStore();
  const deps = {
    store,
    repository: createCustomersRepository(store),
    outbox: createOutbox(store, "payments"),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  return { store, deps, outbox };
}

const caller = (key: string) => ({ projectId: "prj_a", environment: "test" as const, correlationId: "c", idempotencyKey: key });

describe("createCustomer", () => {
  it("writes the customer and its customer.created event together", async () => {
    const { deps, outbox } = await setup();
    const customer = await createCustomer(deps, caller("key-0000000000000001"), { customerReference: "u-1", email: "u1@example.ph", name: "Uno" });

    const events = await outbox.find({});
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject: "bayad.events.payments.customer.created",
      projectId: "prj_a",
      environment: "test",
      resourceId: customer._id,
      aggregateVersion: 1,
    });
    const event = fromBinary(EventSchema, Buffer.from(events[0]!.payload, "base64"));
    expect(event.eventId).toBe(events[0]!._id);
    expect(event.snapshot.case).toBe("customer");
    expect(event.snapshot.case === "customer" && event.snapshot.value.email).toBe("u1@example.ph");
  });

  it("returns the same customer, and writes no second event, for a repeated Idempotency-Key", async () => {
    const { deps, outbox } = await setup();
    const first = await createCustomer(deps, caller("key-0000000000000002"), { customerReference: "u-2", email: "u2@example.ph" });
    const again = await createCustomer(deps, caller("key-0000000000000002"), { customerReference: "u-2", email: "u2@example.ph" });
    expect(again._id).toBe(first._id);
    expect(await outbox.count({})).toBe(1);
  });

  it("creates one customer from concurrent calls with one key", async () => {
    const { deps, outbox, store } = await setup();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => createCustomer(deps, caller("key-0000000000000003"), { customerReference: "u-3", email: "u3@example.ph" })),
    );
    expect(new Set(results.map((c) => c._id)).size).toBe(1);
    expect(await store.collection({ name: "customers" }).count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("refuses a second customer with the same customerReference and writes nothing", async () => {
    const { deps, outbox, store } = await setup();
    await createCustomer(deps, caller("key-0000000000000004"), { customerReference: "u-4", email: "u4@example.ph" });
    await expect(
      createCustomer(deps, caller("key-0000000000000005"), { customerReference: "u-4", email: "other@example.ph" }),
    ).rejects.toMatchObject({ code: "RESOURCE_ALREADY_EXISTS" });
    expect(await store.collection({ name: "customers" }).count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("allows the same customerReference in another environment", async () => {
    const { deps } = await setup();
    await createCustomer(deps, caller("key-0000000000000006"), { customerReference: "u-6", email: "u6@example.ph" });
    const live = await createCustomer(deps, { ...caller("key-0000000000000006"), environment: "live" }, { customerReference: "u-6", email: "u6@example.ph" });
    expect(live.environment).toBe("live");
  });
});

describe("getCustomer", () => {
  it("does not find another project's customer", async () => {
    const { deps } = await setup();
    const customer = await createCustomer(deps, caller("key-0000000000000007"), { customerReference: "u-7", email: "u7@example.ph" });
    await expect(getCustomer(deps, { ...caller("x"), projectId: "prj_b" }, customer._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect((await getCustomer(deps, caller("x"), customer._id)).email).toBe("u7@example.ph");
  });
});

import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import type { Doc } from "@bayad/store";
import { actOnce, createIdempotencyKeys, createOnce, idempotencyKeysCollection, type KeyedCaller } from "./idempotency-keys.js";
import { createTestStore } from "@bayad/store/testing";

interface Thing extends Doc {
  status: string;
}

async function setup(windowMs = 60_000) {
  const store = createTestStore();
  const clock = { now: new Date("2030-01-01T00:00:00.000Z") };
  const keys = createIdempotencyKeys(store, { windowMs, now: () => clock.now });
  const things = store.collection<Thing>({ name: "things" });
  await store.ensureIndexes();
  let made = 0;
  const create = (caller: KeyedCaller) =>
    createOnce(keys, caller, "createThing", {
      existing: (id) => things.findOne({ _id: id }),
      create: (claim) =>
        store.transaction(async (session) => {
          const thing = { _id: `thing_${++made}`, status: "new" };
          await things.insertOne(thing, { session });
          await claim(session, thing._id);
          return thing;
        }),
    });
  const setStatus = (caller: KeyedCaller, id: string, status: string) =>
    actOnce<Thing>(keys, caller, "setStatus", id, (claim) =>
      store.transaction(async (session) => {
        await things.updateOne({ _id: id }, { $set: { status } }, { session });
        const next = { _id: id, status };
        await claim(session, next);
        return next;
      }),
    );
  return { store, clock, keys, things, create, setStatus };
}

const alice = { projectId: "prj_a", environment: "test" as const, idempotencyKey: "key-0000000000000001" };

describe("createOnce", () => {
  it("creates one resource for any number of concurrent requests with one key", async () => {
    const { create, things, store } = await setup();
    const results = await Promise.all(Array.from({ length: 20 }, () => create(alice)));
    expect(new Set(results.map((thing) => thing._id)).size).toBe(1);
    expect(await things.count({})).toBe(1);
    expect(await store.collection(idempotencyKeysCollection).count({})).toBe(1);
  });

  it("keeps keys apart by project and environment", async () => {
    const { create } = await setup();
    const first = await create(alice);
    expect((await create({ ...alice, projectId: "prj_b" }))._id).not.toBe(first._id);
    expect((await create({ ...alice, environment: "live" }))._id).not.toBe(first._id);
  });

  it("forgets a key once its window has passed, before the store's TTL sweep has removed it", async () => {
    const { create, clock, things } = await setup(60_000);
    const first = await create(alice);
    clock.now = new Date(clock.now.getTime() + 59_999);
    expect((await create(alice))._id).toBe(first._id);
    clock.now = new Date(clock.now.getTime() + 1);
    const second = await create(alice);
    expect(second._id).not.toBe(first._id);
    expect(await things.count({})).toBe(2);
    // The new claim holds for a window of its own.
    expect((await create(alice))._id).toBe(second._id);
  });

  it("runs the window from when the gateway recorded the key, however late the service sees it", async () => {
    const { create, clock, things } = await setup(60_000);
    const recordedAt = clock.now.getTime();
    // A reconciliation re-drives the request 50 s after the gateway recorded it.
    clock.now = new Date(recordedAt + 50_000);
    const first = await create({ ...alice, idempotencyKeyCreatedAt: recordedAt });
    // The gateway forgets the key at recordedAt + 60 s, and so does the service.
    clock.now = new Date(recordedAt + 60_000);
    expect((await create({ ...alice, idempotencyKeyCreatedAt: clock.now.getTime() }))._id).not.toBe(first._id);
    expect(await things.count({})).toBe(2);
  });

  it("treats a claim from before the gateway's record of the key as an earlier use it has forgotten", async () => {
    const { create, clock } = await setup(60_000);
    const first = await create({ ...alice, idempotencyKeyCreatedAt: clock.now.getTime() });
    // The same use of the key, re-driven: the same answer.
    clock.now = new Date(clock.now.getTime() + 1_000);
    expect((await create({ ...alice, idempotencyKeyCreatedAt: clock.now.getTime() - 1_000 }))._id).toBe(first._id);
    // A use the gateway recorded later (it forgot the first, within the service's window here).
    expect((await create({ ...alice, idempotencyKeyCreatedAt: clock.now.getTime() }))._id).not.toBe(first._id);
  });

  it("refuses a key first used by another operation", async () => {
    const { create, setStatus } = await setup();
    const thing = await create(alice);
    await expect(setStatus(alice, thing._id, "done")).rejects.toMatchObject({ code: "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH" });
  });
});

describe("actOnce", () => {
  it("answers a retry with the resource as the first run left it, even after later changes", async () => {
    const { create, setStatus, things } = await setup();
    const thing = await create({ ...alice, idempotencyKey: "key-create-000000001" });
    const first = await setStatus(alice, thing._id, "paid");
    await setStatus({ ...alice, idempotencyKey: "key-other-0000000001" }, thing._id, "refunded");
    expect(await setStatus(alice, thing._id, "paid")).toEqual(first);
    expect((await things.findOne({ _id: thing._id }))?.status).toBe("refunded");
  });

  it("runs the action once for concurrent requests with one key", async () => {
    const { create, keys, store, things } = await setup();
    const thing = await create({ ...alice, idempotencyKey: "key-create-000000002" });
    let runs = 0;
    const act = () =>
      actOnce<Thing>(keys, alice, "bump", thing._id, (claim) =>
        store.transaction(async (session) => {
          runs += 1;
          const next = { _id: thing._id, status: `bumped-${runs}` };
          await things.updateOne({ _id: thing._id }, { $set: { status: next.status } }, { session });
          await claim(session, next);
          return next;
        }),
      );
    const results = await Promise.all(Array.from({ length: 10 }, act));
    expect(new Set(results.map((result) => result.status)).size).toBe(1);
    expect((await things.findOne({ _id: thing._id }))?.status).toBe(results[0]!.status);
  });

  it("refuses the key on another resource", async () => {
    const { setStatus } = await setup();
    await setStatus(alice, "thing_x", "paid");
    await expect(setStatus(alice, "thing_y", "paid")).rejects.toBeInstanceOf(AppError);
  });
});

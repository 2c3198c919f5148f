import { create, fromBinary } from "@bufbuild/protobuf";
import { CustomerSchema, EventSchema } from "@bayad/proto";
import { AppError, defineStateMachine } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { beforeEach, describe, expect, it } from "vitest";
import { createResource, moveResource, type ResourceMover, type StatefulRecord } from "./move-resource.js";
import { createOutbox } from "./outbox.js";
import { commitChange } from "./versioned-change.js";
import { VERSION_CONFLICT_ATTEMPTS } from "./version-conflicts.js";
import { outboxOf } from "./test-support/outbox-fixture.js";
import { createTestStore } from "@bayad/store/testing";

type Status = "open" | "closed";
interface Thing extends StatefulRecord<Status> {
  label: string;
  note?: string;
}

const states = defineStateMachine<Status, "close" | "reopen">(
  "thing",
  { close: { from: ["open"], to: "closed" }, reopen: { from: ["closed"], to: "open" } },
  { close: "closed", reopen: "reopened" },
);

let store: Store;
let mover: ResourceMover<Thing, Status, "close" | "reopen">;

beforeEach(() => {
  store = createTestStore();
  mover = {
    store,
    collection: store.collection<Thing>({ name: "things" }),
    outbox: createOutbox(store, "test"),
    states,
    resource: "thing",
    snapshot: (thing) => ({ case: "customer", value: create(CustomerSchema, { customerId: thing._id, name: thing.label }) }),
  };
});

function newThing(): Thing {
  return { _id: "thing_1", projectId: "prj_1", environment: "test", status: "open", label: "first", aggregateVersion: 1, updatedAt: new Date(0) };
}

/** The outbox's events of the thing, by version: [subject, aggregateVersion, snapshot name]. */
async function eventsOf(id: string) {
  const records = await outboxOf(store).find({ resourceId: id }, { sort: { aggregateVersion: 1 } });
  return records.map((record) => {
    const event = fromBinary(EventSchema, Buffer.from(record.payload, "base64"));
    return [record.subject, record.aggregateVersion, event.snapshot.case === "customer" ? event.snapshot.value.name : undefined];
  });
}

describe("moveResource", () => {
  it("writes each move's new version with its event in one transaction", async () => {
    await createResource(mover, newThing());
    const closed = await moveResource(mover, newThing(), "close", { extra: { label: "second" } });
    expect(closed).toMatchObject({ status: "closed", label: "second", aggregateVersion: 2 });
    expect(await mover.collection.findOne({ _id: "thing_1" })).toEqual(closed);
    expect(await eventsOf("thing_1")).toEqual([
      ["bayad.events.test.thing.open", 1, "first"],
      ["bayad.events.test.thing.closed", 2, "second"],
    ]);
  });

  it("keeps the fields a move does not change, even those missing from the caller's copy", async () => {
    const stored = await createResource(mover, { ...newThing(), note: "kept" });
    // The caller's copy lacks `note` (a read of some fields): the move must not drop it.
    const { note: _, ...partial } = stored;
    const closed = await moveResource(mover, partial, "close");
    expect(await mover.collection.findOne({ _id: "thing_1" })).toEqual({ ...closed, note: "kept" });
  });

  it("decides again from a fresh read when another change landed first", async () => {
    await createResource(mover, newThing());
    const renamed = { ...newThing(), label: "renamed", aggregateVersion: 2 };
    expect(await commitChange({ ...mover, record: renamed, event: { name: "thing.renamed", caller: renamed, snapshot: mover.snapshot(renamed) } })).toBe(true);
    const closed = await moveResource(mover, newThing(), "close");
    expect(closed).toMatchObject({ status: "closed", label: "renamed", aggregateVersion: 3 });
    expect(await mover.collection.findOne({ _id: "thing_1" })).toEqual(closed);
    await expect(moveResource(mover, newThing(), "close")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await eventsOf("thing_1")).toEqual([
      ["bayad.events.test.thing.open", 1, "first"],
      ["bayad.events.test.thing.renamed", 2, "renamed"],
      ["bayad.events.test.thing.closed", 3, "renamed"],
    ]);
  });
});

describe("moveResource against a resource that keeps changing", () => {
  /**
   * The real store, but before each of the move's transactions another writer lands a change
   * (a rename, version + 1) through the same store: the move loses every race it runs, for the
   * first `races` transactions.
   */
  function contendedMover(races: number) {
    let bumps = 0;
    const bump = async () => {
      const stored = (await mover.collection.findOne({ _id: "thing_1" }))!;
      const renamed = { ...stored, label: `bumped-${++bumps}`, aggregateVersion: stored.aggregateVersion + 1 };
      expect(await commitChange({ ...mover, record: renamed, event: { name: "thing.renamed", caller: renamed, snapshot: mover.snapshot(renamed) } })).toBe(true);
    };
    const contended: Store = {
      collection: (def) => store.collection(def),
      listCollections: () => store.listCollections(),
      ensureIndexes: () => store.ensureIndexes(),
      flush: () => store.flush(),
      ping: () => store.ping(),
      close: () => store.close(),
      async transaction(work, options) {
        if (bumps < races) await bump();
        return store.transaction(work, options);
      },
    };
    return { mover: { ...mover, store: contended }, bumps: () => bumps };
  }

  it("gives up after VERSION_CONFLICT_ATTEMPTS lost races with 409 CONCURRENT_MODIFICATION, having written nothing", async () => {
    await createResource(mover, newThing());
    const contended = contendedMover(Infinity);
    const error = await moveResource(contended.mover, newThing(), "close").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "CONCURRENT_MODIFICATION", httpStatus: 409 });
    expect(contended.bumps()).toBe(VERSION_CONFLICT_ATTEMPTS);
    const stored = await mover.collection.findOne({ _id: "thing_1" });
    expect(stored).toMatchObject({ status: "open", aggregateVersion: 1 + VERSION_CONFLICT_ATTEMPTS });
    const subjects = (await eventsOf("thing_1")).map(([subject]) => subject);
    expect(subjects).not.toContain("bayad.events.test.thing.closed");
  });

  it("still lands when it loses fewer races than that, deciding from the last writer's version", async () => {
    await createResource(mover, newThing());
    const contended = contendedMover(VERSION_CONFLICT_ATTEMPTS - 1);
    const closed = await moveResource(contended.mover, newThing(), "close");
    expect(closed).toMatchObject({ status: "closed", label: `bumped-${VERSION_CONFLICT_ATTEMPTS - 1}`, aggregateVersion: VERSION_CONFLICT_ATTEMPTS + 1 });
    expect(await mover.collection.findOne({ _id: "thing_1" })).toEqual(closed);
  });
});

describe("commitChange", () => {
  it("writes nothing, not even the event, when the stored version is not the one before", async () => {
    await createResource(mover, newThing());
    const skipped = { ...newThing(), label: "skipped", aggregateVersion: 3 };
    const landed = await commitChange({ ...mover, record: skipped, event: { name: "thing.renamed", caller: skipped, snapshot: mover.snapshot(skipped) } });
    expect(landed).toBe(false);
    expect(await mover.collection.findOne({ _id: "thing_1" })).toEqual(newThing());
    expect(await eventsOf("thing_1")).toHaveLength(1);
  });
});

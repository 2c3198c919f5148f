import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Collection, Store } from "@bayad/store";
import { countingStore, createTestStore } from "@bayad/store/testing";
import { batchInTransaction } from "./batch-in-transaction.js";
import type { DeliveredMessage } from "./bus.js";

const consumer = { component: "test", durableName: "test" };
const messageOf = (eventId: string): DeliveredMessage => ({ subject: "bayad.events.test", eventId, payload: new Uint8Array(), redelivered: false });

describe("batchInTransaction", () => {
  let store: Store;
  let seen: Collection<{ _id: string; position: number }>;
  beforeEach(async () => {
    store = createTestStore();
    seen = store.collection({ name: "seen", indexes: [] });
    await store.ensureIndexes();
  });
  afterEach(() => store.close());

  it("hands every message of a batch, in order, to a handler writing in one transaction", async () => {
    const counted = countingStore(store);
    // The position counts afresh with each run of the transaction (the store reruns this one).
    const handle = batchInTransaction(counted.store, consumer, (session) => {
      let position = 0;
      return async (message) => {
        await seen.insertOne({ _id: message.eventId, position: position++ }, { session });
      };
    });
    await handle(["evt_b", "evt_a", "evt_c"].map(messageOf));
    expect(counted.transactions()).toBe(1);
    expect(await seen.find({}, { sort: { position: 1 } })).toEqual([
      { _id: "evt_b", position: 0 },
      { _id: "evt_a", position: 1 },
      { _id: "evt_c", position: 2 },
    ]);
  });

  it("keeps nothing of a batch whose handler throws on a later message, and rejects", async () => {
    const handle = batchInTransaction(store, consumer, (session) => async (message) => {
      if (message.eventId === "evt_bad") throw new Error("cannot write");
      await seen.insertOne({ _id: message.eventId, position: 0 }, { session });
    });
    await expect(handle(["evt_1", "evt_2", "evt_bad"].map(messageOf))).rejects.toThrow("cannot write");
    expect(await seen.count({})).toBe(0);
  });
});

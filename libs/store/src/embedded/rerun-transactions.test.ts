import { describe, expect, it } from "vitest";
import type { Doc, Session, Store } from "../port.js";
import { describeStoreContract } from "../test-support/store-contract.js";
import { createEmbeddedStore } from "./embedded-store.js";

type AnyDoc = Doc & Record<string, unknown>;

async function withRerunningStore(test: (store: Store) => Promise<void>): Promise<void> {
  const store = createEmbeddedStore({ rerunTransactions: true });
  try {
    await test(store);
  } finally {
    await store.close();
  }
}

// The port's whole contract holds when every transaction's work runs twice, as MongoDB may run it.
describeStoreContract("embedded, rerunning transactions", async () => createEmbeddedStore({ rerunTransactions: true }));

describe("createEmbeddedStore({ rerunTransactions: true })", () => {
  it("runs work twice and commits only the second run's writes, returning its result", () =>
    withRerunningStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      let run = 0;
      const result = await store.transaction(async (session) => {
        run += 1;
        await orders.insertOne({ _id: `from-run-${run}` }, { session });
        return `result of run ${run}`;
      });
      expect(run).toBe(2);
      expect(result).toBe("result of run 2");
      expect(await orders.find({})).toEqual([{ _id: "from-run-2" }]);
    }));

  it("never shows the first run's writes to readers outside, nor to the second run", () =>
    withRerunningStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      await orders.insertOne({ _id: "o1", status: "new", attempts: 0 });
      const seenInside: unknown[] = [];
      const seenOutside: unknown[] = [];
      await store.transaction(async (session) => {
        seenInside.push(await orders.findOne({ _id: "o1" }, { session }));
        seenInside.push(await orders.count({}, { session }));
        await orders.updateOne({ _id: "o1" }, { $set: { status: "paid" }, $inc: { attempts: 1 } }, { session });
        await orders.insertOne({ _id: "o2" }, { session });
        seenOutside.push(await orders.find({}));
      });
      const before = { _id: "o1", status: "new", attempts: 0 };
      // Both runs start from the committed state: the second does not see the first's update or insert.
      expect(seenInside).toEqual([before, 1, before, 1]);
      expect(seenOutside).toEqual([[before], [before]]);
      expect(await orders.find({}, { sort: { _id: 1 } })).toEqual([{ _id: "o1", status: "paid", attempts: 1 }, { _id: "o2" }]);
    }));

  it("closes the first run's session once that run is over", () =>
    withRerunningStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      const sessions: Session[] = [];
      await store.transaction(async (session) => {
        sessions.push(session);
      });
      expect(sessions).toHaveLength(2);
      expect(sessions[0]?.id).not.toBe(sessions[1]?.id);
      await expect(orders.insertOne({ _id: "late" }, { session: sessions[0] })).rejects.toThrow(/not an open transaction/);
    }));

  it("propagates an error of the first run, with nothing committed and no second run", () =>
    withRerunningStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      const failure = new Error("refused in the first run");
      let runs = 0;
      const attempt = store.transaction(async (session) => {
        runs += 1;
        await orders.insertOne({ _id: "o1" }, { session });
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(runs).toBe(1);
      expect(await orders.count({})).toBe(0);
    }));

  it("propagates an error of the second run, with nothing of either run committed", () =>
    withRerunningStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      const failure = new Error("refused in the second run");
      let runs = 0;
      const attempt = store.transaction(async (session) => {
        runs += 1;
        await orders.insertOne({ _id: `o${runs}` }, { session });
        if (runs === 2) throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(runs).toBe(2);
      expect(await orders.count({})).toBe(0);
    }));

  it("fails on a write the second run makes invalid, as a first run's failed write would", () =>
    withRerunningStore(async (store) => {
      const users = store.collection<AnyDoc>({ name: "users" });
      await users.insertOne({ _id: "taken" });
      let runs = 0;
      const attempt = store.transaction(async (session) => {
        runs += 1;
        // Only the second run reuses a taken _id: the failure doomed it even though work caught it.
        await users.insertOne({ _id: runs === 2 ? "taken" : "fresh" }, { session }).catch(() => undefined);
      });
      await expect(attempt).rejects.toThrow(/duplicate key/);
      expect(await users.find({})).toEqual([{ _id: "taken" }]);
    }));

  it("runs work once without the option", async () => {
    const store = createEmbeddedStore();
    try {
      let runs = 0;
      await store.transaction(async () => {
        runs += 1;
      });
      expect(runs).toBe(1);
    } finally {
      await store.close();
    }
  });
});

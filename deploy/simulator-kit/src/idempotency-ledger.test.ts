import { afterEach, describe, expect, it, vi } from "vitest";
import { canonicalJson, IdempotencyLedger, type IdempotencyRules } from "./idempotency-ledger.js";

class Refused extends Error {
  constructor(readonly kept: boolean) {
    super(kept ? "refused, kept" : "refused, not kept");
  }
}

const rules: IdempotencyRules<{ id: number }> = {
  keep: (outcome) => (outcome.ok ? outcome.value.id > 0 : outcome.error instanceof Refused && outcome.error.kept),
  mismatch: () => new Error("mismatch"),
  inProgress: () => new Error("in progress"),
};

afterEach(() => {
  vi.useRealTimers();
});

describe("canonicalJson", () => {
  it("writes objects with their keys sorted at every depth, arrays in their order", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}');
    expect(canonicalJson(["POST", "/v1/refunds", { amount: 1 }])).toBe('["POST","/v1/refunds",{"amount":1}]');
  });
});

describe("IdempotencyLedger", () => {
  it("runs work once per key and replays a copy of its value to a repeat with the same fingerprint", async () => {
    const ledger = new IdempotencyLedger(60_000, rules);
    let runs = 0;
    const work = async () => ({ id: ++runs });
    const first = await ledger.run("acct key", "fp", work);
    const again = await ledger.run("acct key", "fp", work);
    expect(again).toEqual({ id: 1 });
    expect(again).not.toBe(first);
    expect(runs).toBe(1);
    // Another key is its own.
    expect(await ledger.run("other key", "fp", work)).toEqual({ id: 2 });
  });

  it("throws the rules' mismatch for another fingerprint and in-progress while the first runs", async () => {
    const ledger = new IdempotencyLedger(60_000, rules);
    let finish!: (value: { id: number }) => void;
    const first = ledger.run("k", "fp", () => new Promise((resolve) => (finish = resolve)));
    await expect(ledger.run("k", "fp", async () => ({ id: 9 }))).rejects.toThrow("in progress");
    await expect(ledger.run("k", "other", async () => ({ id: 9 }))).rejects.toThrow("mismatch");
    finish({ id: 1 });
    await expect(first).resolves.toEqual({ id: 1 });
    await expect(ledger.run("k", "other", async () => ({ id: 9 }))).rejects.toThrow("mismatch");
  });

  it("throws a kept error again without running; an outcome not kept frees the key", async () => {
    const ledger = new IdempotencyLedger(60_000, rules);
    const kept = new Refused(true);
    await expect(ledger.run("a", "fp", () => Promise.reject(kept))).rejects.toBe(kept);
    await expect(ledger.run("a", "fp", async () => ({ id: 1 }))).rejects.toBe(kept);

    await expect(ledger.run("b", "fp", () => Promise.reject(new Refused(false)))).rejects.toThrow("not kept");
    await expect(ledger.run("b", "fp", async () => ({ id: 0 }))).resolves.toEqual({ id: 0 });
    // { id: 0 } is not kept either: the key is free again.
    await expect(ledger.run("b", "other", async () => ({ id: 2 }))).resolves.toEqual({ id: 2 });
  });

  it("forgets a key once its time is over", async () => {
    vi.useFakeTimers();
    const ledger = new IdempotencyLedger(1000, rules);
    let runs = 0;
    const work = async () => ({ id: ++runs });
    await ledger.run("k", "fp", work);
    vi.advanceTimersByTime(999);
    expect(await ledger.run("k", "fp", work)).toEqual({ id: 1 });
    vi.advanceTimersByTime(1);
    expect(await ledger.run("k", "other", work)).toEqual({ id: 2 });
  });
});

import { describe, expect, it } from "vitest";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { createDashboardSessions, dashboardSessionsCollection, type DashboardSessionOptions } from "./dashboard-sessions.js";

const secret = "test-gateway-secret-0123456789abcdef";
const keyA = "adm_key_A_0123456789abcdef";
const keyB = "adm_key_B_0123456789abcdef";
const minute = 60_000;

function clock() {
  let current = Date.parse("2026-03-01T08:00:00.000Z");
  return { now: () => new Date(current), advance: (ms: number) => void (current += ms) };
}

async function newStore(): Promise<Store> {
  const store = createEmbeddedStore();
  await store.ensureIndexes();
  return store;
}

const options = (overrides: Partial<DashboardSessionOptions> = {}): DashboardSessionOptions => ({
  secret,
  adminKey: keyA,
  ttlMs: 8 * 60 * minute,
  idleMs: 30 * minute,
  ...overrides,
});

const storedSessions = (store: Store) => store.collection<{ _id: string; lastUsedAt: Date }>(dashboardSessionsCollection).find({});

describe("dashboard sessions and the admin key", () => {
  it("refuses, and deletes, a session signed in with another admin key than the one configured now", async () => {
    const store = await newStore();
    const { token } = await createDashboardSessions(store, options({ adminKey: keyA })).start();
    expect(await createDashboardSessions(store, options({ adminKey: keyA })).find(token)).not.toBeNull();

    expect(await createDashboardSessions(store, options({ adminKey: keyB })).find(token)).toBeNull();
    expect(await storedSessions(store)).toEqual([]);
    // Gone for good: going back to the old key does not bring it back.
    expect(await createDashboardSessions(store, options({ adminKey: keyA })).find(token)).toBeNull();
  });

  it("keeps no admin key in the clear", async () => {
    const store = await newStore();
    await createDashboardSessions(store, options()).start();
    expect(JSON.stringify(await storedSessions(store))).not.toContain(keyA);
  });
});

describe("dashboard session idle timeout", () => {
  it("ends a session left unused for the idle time, while use keeps it alive up to its absolute end", async () => {
    const store = await newStore();
    const time = clock();
    const sessions = createDashboardSessions(store, options({ now: time.now, idleMs: 30 * minute, ttlMs: 60 * minute }));
    const used = await sessions.start();
    const idle = await sessions.start();

    for (let step = 1; step <= 2; step++) {
      time.advance(20 * minute);
      expect(await sessions.find(used.token), `after ${step * 20} minutes`).not.toBeNull();
    }
    expect(await sessions.find(idle.token)).toBeNull();
    time.advance(19 * minute);
    expect(await sessions.find(used.token)).not.toBeNull();
    // 1 minute since its last use, but 60 since sign-in.
    time.advance(1 * minute);
    expect(await sessions.find(used.token)).toBeNull();
  });

  it("ends a session exactly at its idle time and records use at most once a minute", async () => {
    const store = await newStore();
    const time = clock();
    const sessions = createDashboardSessions(store, options({ now: time.now, idleMs: 30 * minute }));
    const started = await sessions.start();
    const signedInAt = time.now().getTime();

    time.advance(59_000);
    expect(await sessions.find(started.token)).not.toBeNull();
    expect((await storedSessions(store))[0]?.lastUsedAt.getTime()).toBe(signedInAt);
    time.advance(1_000);
    expect(await sessions.find(started.token)).not.toBeNull();
    expect((await storedSessions(store))[0]?.lastUsedAt.getTime()).toBe(signedInAt + minute);

    time.advance(30 * minute - 1);
    expect(await sessions.find(started.token)).not.toBeNull();
    time.advance(30 * minute);
    expect(await sessions.find(started.token)).toBeNull();
  });
});

describe("ending every dashboard session", () => {
  it("ends them all and answers how many there were", async () => {
    const store = await newStore();
    const sessions = createDashboardSessions(store, options());
    const tokens = [await sessions.start(), await sessions.start()].map((session) => session.token);
    expect(await sessions.endAll()).toBe(2);
    for (const token of tokens) expect(await sessions.find(token)).toBeNull();
    expect(await sessions.endAll()).toBe(0);
  });
});

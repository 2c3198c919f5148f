import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DuplicateKeyError, type Doc, type IndexSpec } from "../port.js";
import { createEmbeddedStore } from "./embedded-store.js";

type AnyDoc = Doc & Record<string, unknown>;

const directories: string[] = [];
function freshDirectory(): string {
  const path = mkdtempSync(join(tmpdir(), "bayad-store-test-"));
  directories.push(path);
  return path;
}
afterEach(() => {
  for (const path of directories.splice(0)) rmSync(path, { recursive: true, force: true });
});

const INDEXES: IndexSpec[] = [
  { name: "email_unique", keys: { email: 1 }, unique: true },
  { name: "tags_created", keys: { tags: 1, createdAt: -1 } },
  { name: "expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
];

describe("createEmbeddedStore with a path", () => {
  it("finds after a restart the documents, collections and indexes it held, before ensureIndexes runs again", async () => {
    const path = freshDirectory();
    const first = createEmbeddedStore({ path });
    const users = first.collection<AnyDoc>({ name: "users", indexes: INDEXES });
    await first.ensureIndexes();
    const past = new Date(Date.now() - 60_000);
    await users.insertOne({ _id: "u1", email: "ana@example.ph", tags: ["a", "b"], createdAt: new Date(1), nested: { n: 1.5 } });
    await users.insertOne({ _id: "u2", email: "ben@example.ph", tags: ["b"], createdAt: new Date(2) });
    await users.insertOne({ _id: "gone", email: "old@example.ph", expiresAt: past });
    await first.transaction(async (session) => {
      await users.updateOne({ _id: "u2" }, { $set: { verified: true } }, { session });
      await first.collection<AnyDoc>({ name: "audit" }).insertOne({ _id: "a1", user: "u2" }, { session });
    });
    await first.close();

    // The same code starting again, its TTL monitor running often; no ensureIndexes yet.
    const second = createEmbeddedStore({ path, ttlSweepMs: 5 });
    try {
      const again = second.collection<AnyDoc>({ name: "users", indexes: INDEXES });
      expect((await second.listCollections()).sort()).toEqual(["audit", "users"]);
      expect(await again.findOne({ _id: "u1" })).toEqual({ _id: "u1", email: "ana@example.ph", tags: ["a", "b"], createdAt: new Date(1), nested: { n: 1.5 } });
      expect(await again.findOne({ _id: "u2" })).toEqual({ _id: "u2", email: "ben@example.ph", tags: ["b"], createdAt: new Date(2), verified: true });
      const duplicate = await again.insertOne({ _id: "u3", email: "ana@example.ph" }).catch((error: unknown) => error);
      expect(duplicate).toBeInstanceOf(DuplicateKeyError);
      expect((duplicate as DuplicateKeyError).index).toBe("email_unique");
      // The index is known to be multikey from before the restart, so it is not taken for the sort's
      // order (an array sorts ascending by its smallest element: u1's "a" before u2's "b").
      expect((await again.find({ tags: "b" }, { sort: { tags: 1, createdAt: -1 } })).map((doc) => doc._id)).toEqual(["u1", "u2"]);
      await expect.poll(() => again.count({ _id: "gone" }), { timeout: 5_000, interval: 10 }).toBe(0);
      await second.ensureIndexes();
      expect(await again.count({})).toBe(2);
    } finally {
      await second.close();
    }
  });

  it.each([
    ["text", Buffer.from("not a database, just some text that is long enough\n".repeat(200))],
    ["zeros", Buffer.alloc(16_384)],
    ["a few bytes", Buffer.from([1, 2, 3])],
  ])("refuses a data file that is not LMDB's (%s) with an error naming it, rather than letting LMDB crash the process", (_case, bytes) => {
    const path = freshDirectory();
    writeFileSync(join(path, "data.mdb"), bytes);
    expect(() => createEmbeddedStore({ path })).toThrow(`${join(path, "data.mdb")} is not an LMDB data file`);
  });

  it("refuses a second store on a directory already open in this process, and opens it once the first closed", async () => {
    const path = freshDirectory();
    const first = createEmbeddedStore({ path });
    expect(() => createEmbeddedStore({ path: `${path}/.` })).toThrow(/already open in this process/);
    await first.close();
    await createEmbeddedStore({ path }).close();
  });

  it("reads after a restart a document of a shape first seen by a commit that aborted", async () => {
    const path = freshDirectory();
    const first = createEmbeddedStore({ path });
    const things = first.collection<AnyDoc>({ name: "things", indexes: [{ name: "label", keys: { label: 1 } }] });
    await first.ensureIndexes();
    // The index entry is too long for LMDB: the commit aborts after the document was encoded.
    await expect(things.insertOne({ _id: "x", shape: "new", label: "l".repeat(3000) })).rejects.toThrow(/LMDB keys hold at most/);
    await things.insertOne({ _id: "y", shape: "new", label: "short" });
    await first.close();
    const second = createEmbeddedStore({ path });
    try {
      const again = second.collection<AnyDoc>({ name: "things" });
      expect(await again.find({})).toEqual([{ _id: "y", shape: "new", label: "short" }]);
    } finally {
      await second.close();
    }
  });

  it("keeps every write whose promise resolved when the process is killed with SIGKILL mid-stream", async () => {
    const path = freshDirectory();
    // The child runs the built package (dist/), as `npm test` builds before it tests.
    const writer = fileURLToPath(new URL("../test-support/durable-writer.mjs", import.meta.url));
    const child = spawn(process.execPath, [writer, path], { stdio: ["ignore", "pipe", "inherit"] });
    const acknowledged: string[] = [];
    let pending = "";
    const killAfter = 300 + Math.floor(Math.random() * 700);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line !== "ready") acknowledged.push(line);
      if (acknowledged.length >= killAfter) child.kill("SIGKILL");
    });
    expect(await exited).toBe("SIGKILL");
    expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

    const reopened = createEmbeddedStore({ path });
    try {
      const payments = reopened.collection<AnyDoc>({ name: "payments" });
      const ledger = reopened.collection<AnyDoc>({ name: "ledger" });
      const stored = new Set((await payments.find({})).map((doc) => doc._id));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
      // Transactions landed whole: a payment written in one has its ledger entry, and no entry lacks its payment.
      const entries = await ledger.find({});
      for (const entry of entries) expect(stored.has(entry.payment as string)).toBe(true);
      for (const id of stored) if (Number(id.slice(1)) % 3 === 0) expect(entries.some((entry) => entry.payment === id)).toBe(true);
      await expect(payments.insertOne({ _id: "late", reference: "ref-0" })).rejects.toBeInstanceOf(DuplicateKeyError);
    } finally {
      await reopened.close();
    }
  });
});

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DuplicateKeyError, type Doc } from "../port.js";
import { backupEmbeddedStore } from "./backup.js";
import { createEmbeddedStore } from "./embedded-store.js";

type AnyDoc = Doc & Record<string, unknown>;

const directories: string[] = [];
afterEach(() => {
  for (const path of directories.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe("backupEmbeddedStore", () => {
  it("copies a store another process keeps writing, as it stood at one moment, without stopping it", async () => {
    const parent = mkdtempSync(join(tmpdir(), "bayad-store-backup-"));
    directories.push(parent);
    const path = join(parent, "store");
    const copy = join(parent, "copy");
    // The writer of durability.test.ts: payments (a unique reference) and, every third one, a
    // ledger entry in the same transaction; it prints each _id once its write is acknowledged.
    const writer = fileURLToPath(new URL("../test-support/durable-writer.mjs", import.meta.url));
    const child = spawn(process.execPath, [writer, path], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    const acknowledged: string[] = [];
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line !== "ready") acknowledged.push(line);
    });
    const writtenAtLeast = async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (acknowledged.length < count) {
        if (Date.now() > deadline) throw new Error(`the writer acknowledged only ${acknowledged.length} writes`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    try {
      await writtenAtLeast(500);
      const before = new Set(acknowledged);
      await backupEmbeddedStore(path, copy);
      const after = acknowledged.length;
      // The writer was neither stopped nor blocked by the copy.
      await writtenAtLeast(after + 200);
      child.kill("SIGKILL");
      await exited;

      expect(statSync(join(copy, "data.mdb")).isFile()).toBe(true);
      const restored = createEmbeddedStore({ path: copy });
      try {
        const payments = restored.collection<AnyDoc>({ name: "payments" });
        const ledger = restored.collection<AnyDoc>({ name: "ledger" });
        const stored = new Set((await payments.find({})).map((doc) => doc._id));
        // Everything acknowledged before the copy began is in it; what came after it is not all there.
        expect([...before].filter((id) => !stored.has(id))).toEqual([]);
        expect(stored.size).toBeLessThan(acknowledged.length);
        // One snapshot: each transaction is there whole or not at all.
        const entries = await ledger.find({});
        for (const entry of entries) expect(stored.has(entry.payment as string)).toBe(true);
        for (const id of stored) if (Number(id.slice(1)) % 3 === 0) expect(entries.some((entry) => entry.payment === id)).toBe(true);
        // The indexes came along: the copied unique index still refuses a taken reference.
        await expect(payments.insertOne({ _id: "late", reference: "ref-0" })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await payments.findOne({ reference: "ref-1" })).toMatchObject({ _id: "p1" });
      } finally {
        await restored.close();
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
  }, 60_000);
});

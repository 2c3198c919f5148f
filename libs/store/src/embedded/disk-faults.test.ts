import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreNotWritableError, type Store } from "../port.js";
import { fillDisk, mountSmallTmpfs } from "../testing/index.js";
import { createEmbeddedStore } from "./embedded-store.js";
import { storageFault } from "./lmdb-environment.js";

/**
 * A full disk, for real: the store lives on a 2 MiB tmpfs, which a filler file then fills. Needs
 * root (mount); elsewhere the suite is skipped and says why.
 */
const mountPoint = mkdtempSync(join(tmpdir(), "bayad-full-disk-"));
const mountRefusal = mountSmallTmpfs(mountPoint, "2m");
if (mountRefusal !== undefined) {
  console.warn(`disk-faults.test.ts: the full-disk test is skipped: ${mountRefusal}`);
  rmdirSync(mountPoint);
}

describe("storageFault", () => {
  // A read-only file system cannot be made at run time here (remounting read-only is refused
  // while LMDB holds data.mdb open for writing), so the errors it raises are checked by name.
  it.each(["EROFS", "EACCES", "ENOSPC", "EDQUOT", "EIO"])("makes %s a StoreNotWritableError", (code) => {
    expect(storageFault(Object.assign(new Error(`${code}: refused`), { code }))).toBeInstanceOf(StoreNotWritableError);
  });
  it("leaves other errors alone", () => {
    expect(storageFault(new TypeError("not a storage fault"))).toBeUndefined();
  });
});

describe.skipIf(mountRefusal !== undefined)("the embedded store on a full disk", () => {
  const path = join(mountPoint, "store");
  const filler = join(mountPoint, "filler");
  let store: Store;

  beforeAll(async () => {
    store = createEmbeddedStore({ path });
  });

  afterAll(async () => {
    await store?.close().catch(() => undefined);
    if (mountRefusal === undefined) execFileSync("umount", ["-l", mountPoint]);
    rmdirSync(mountPoint);
  });

  it("refuses writes with StoreNotWritableError while reads go on, is not ready, and writes again once space returns", async () => {
    const items = store.collection<{ _id: string; note: string }>({ name: "items" });
    await items.insertOne({ _id: "before", note: "kept" });
    await store.ping();

    fillDisk(filler);
    // A small commit may still fit in pages LMDB freed earlier; a large one must grow the file.
    const large = "x".repeat(256 * 1024);
    const refused = await store
      .transaction(async (session) => {
        await items.insertOne({ _id: "half-a", note: "small" }, { session });
        await items.insertOne({ _id: "half-b", note: large }, { session });
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(StoreNotWritableError);
    // Nothing half-written, and reads go on.
    expect(await items.findOne({ _id: "half-a" })).toBeNull();
    expect(await items.findOne({ _id: "before" })).toEqual({ _id: "before", note: "kept" });
    // Not ready, and a small write is refused too while the disk stays full.
    await expect(store.ping()).rejects.toBeInstanceOf(StoreNotWritableError);
    await expect(items.insertOne({ _id: "while-full", note: "small" })).rejects.toBeInstanceOf(StoreNotWritableError);
    expect(await items.findOne({ _id: "while-full" })).toBeNull();

    rmSync(filler);
    await store.ping();
    await items.insertOne({ _id: "after", note: large });
    expect((await items.find({})).map((doc) => doc._id).sort()).toEqual(["after", "before"]);

    // What it acknowledged survives a reopen.
    await store.close();
    store = createEmbeddedStore({ path });
    const reopened = store.collection<{ _id: string; note: string }>({ name: "items" });
    expect((await reopened.find({})).map((doc) => doc._id).sort()).toEqual(["after", "before"]);
  });
});

import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diskUsageBytes, parseAnonymousBytes } from "./process-memory.js";

describe("parseAnonymousBytes", () => {
  const rollup = "55d1c000-7ffd0000 ---p 00000000 00:00 0 [rollup]\nRss:              409600 kB\nAnonymous:        262144 kB\nSwap:                  0 kB\n";
  const status = "Name:\tnode\nVmRSS:\t  409600 kB\nRssAnon:\t  200000 kB\nRssFile:\t  200000 kB\n";

  it("reads smaps_rollup's Anonymous, else status's RssAnon, in bytes", () => {
    expect(parseAnonymousBytes(rollup, status)).toBe(262144 * 1024);
    expect(parseAnonymousBytes(undefined, status)).toBe(200000 * 1024);
    expect(parseAnonymousBytes("Rss: 1 kB\n", undefined)).toBeUndefined();
  });
});

describe("diskUsageBytes", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("counts the blocks of every file below the path, and nothing for a path that is not there", async () => {
    dir = await mkdtemp(join(tmpdir(), "bench-du-"));
    const empty = await diskUsageBytes(dir);
    await mkdir(join(dir, "store"));
    await writeFile(join(dir, "store", "data"), Buffer.alloc(256 * 1024, 1));
    const grown = (await diskUsageBytes(dir)) - empty;
    expect(grown).toBeGreaterThanOrEqual(256 * 1024);
    expect(grown).toBeLessThan(256 * 1024 + 64 * 1024);
    expect(await diskUsageBytes(join(dir, "missing"))).toBe(0);
  });
});

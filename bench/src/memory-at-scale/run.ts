import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatformProcess, type PlatformHandle } from "../platform-handle.js";
import { measureScenario } from "../row.js";
import type { LoadSettings } from "../run-autocannon.js";
import { listRecords } from "../scenarios.js";
import { anonymousBytes, diskUsageBytes } from "./process-memory.js";
import type { MemoryAtScaleResult, Phase, ProcessMemory, Seeding } from "./result.js";
import { seedStoredCheckouts } from "./seed-stores.js";

/** The records page's reference size (issue 28: p50 at 1 M within 1.5× of 10 k). */
export const referenceCheckouts = 10_000;

const readyTimeoutMs = 120_000;
const readyPollMs = 10;

/**
 * Memory at scale (issue 28 item 4): one DATA_DIR (a temporary directory, removed at the end),
 * the platform started on it empty, stopped, seeded to the reference size, started again and
 * measured, stopped, seeded to `checkouts`, started and measured once more.
 */
export async function memoryAtScale(checkouts: number, load: LoadSettings): Promise<MemoryAtScaleResult> {
  const dataDir = await mkdtemp(join(tmpdir(), "bayad-bench-memory-"));
  try {
    const seeding: Seeding[] = [];
    const { phase: empty, projectId } = await measurePhase(dataDir, 0, load);
    const smallSize = Math.min(referenceCheckouts, checkouts);
    seeding.push(await seed(dataDir, projectId, smallSize, 0));
    const small = (await measurePhase(dataDir, smallSize, load)).phase;
    let large = small;
    if (checkouts > smallSize) {
      seeding.push(await seed(dataDir, projectId, checkouts - smallSize, smallSize));
      large = (await measurePhase(dataDir, checkouts, load)).phase;
    }
    return { checkouts, empty, small, large, seeding };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function seed(dataDir: string, projectId: string, count: number, before: number): Promise<Seeding> {
  process.stdout.write(`  seeding ${count.toLocaleString("en-US")} checkouts into the stores (${before.toLocaleString("en-US")} → ${(before + count).toLocaleString("en-US")}) …`);
  let reported = 0;
  const seconds = await seedStoredCheckouts(dataDir, projectId, count, ({ seeded }) => {
    // A dot per 100 000, so a long seeding shows it is moving.
    for (; reported + 100_000 <= seeded; reported += 100_000) process.stdout.write(".");
  });
  process.stdout.write(` ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString("en-US")}/s)\n`);
  return { checkouts: count, seconds };
}

/** Starts the platform on `dataDir` holding `checkouts`, measures, and stops it. */
async function measurePhase(dataDir: string, checkouts: number, load: LoadSettings): Promise<{ phase: Phase; projectId: string }> {
  const port = await freePort();
  const started = performance.now();
  const ready = firstReady(`http://127.0.0.1:${port}/readyz`, started);
  let platform: PlatformHandle | undefined;
  try {
    platform = await startPlatformProcess({ dataDir, port });
    const startToReadyMs = await ready.elapsed;
    process.stdout.write(`  platform on ${checkouts.toLocaleString("en-US")} stored checkouts ready in ${(startToReadyMs / 1000).toFixed(2)} s (pid ${platform.pid})\n`);
    const atReady = await readProcessMemory(platform);
    const page = await measureScenario(platform.gatewayUrl, listRecords(platform.testApiKey, checkouts, checkouts), load);
    const afterPages = await readProcessMemory(platform);
    const recordsStored = await platform.countRecords();
    const projectId = platform.projectId;
    await platform.stop();
    platform = undefined;
    const phase: Phase = {
      checkouts,
      startToReadyMs,
      atReady,
      afterPages,
      page: { ...page, recordsStored },
      recordsStored,
      storesDiskBytes: (await diskUsageBytes(join(dataDir, "payments"))) + (await diskUsageBytes(join(dataDir, "records"))),
      dataDirDiskBytes: await diskUsageBytes(dataDir),
    };
    return { phase, projectId };
  } finally {
    ready.cancel();
    await platform?.stop();
  }
}

async function readProcessMemory(platform: PlatformHandle): Promise<ProcessMemory> {
  const { heapUsed, rss } = await platform.memory();
  // Read right after the collections the memory command forced, from outside the process.
  return { heapUsed, rss, anonymous: anonymousBytes(platform.pid) ?? null };
}

/**
 * Polls `url` from `started` until it answers 200; `elapsed` resolves with the milliseconds
 * since `started`. A refused connection (not listening yet) or another status is polled again.
 */
function firstReady(url: string, started: number): { elapsed: Promise<number>; cancel(): void } {
  let cancelled = false;
  const elapsed = (async () => {
    while (!cancelled) {
      const status = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      const now = performance.now();
      if (status === 200) return now - started;
      if (now - started > readyTimeoutMs) throw new Error(`${url} did not answer 200 within ${readyTimeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, readyPollMs));
    }
    return Number.NaN;
  })();
  // A start that fails is reported by startPlatformProcess; this promise must not also be unhandled.
  elapsed.catch(() => {});
  return { elapsed, cancel: () => void (cancelled = true) };
}

/** A port nothing listens on now (the platform binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

import { startPlatform, type RunningPlatform } from "@bayad/platform";
import { announceFailure, announceReady, answerRequests, exitWithParent } from "./ipc.js";
import { readMemory } from "./memory.js";
import type { PlatformCommand, PlatformReady } from "./platform-protocol.js";
import { countRecords, drain, dropData, servicesHeap, servicesThreadId } from "./store-maintenance.js";

/**
 * The platform under test (a child process of the benchmark, started with --expose-gc): the
 * same `startPlatform()` as `npm start`, on embedded defaults, answering the benchmark's
 * commands over IPC. Configuration comes from the environment the benchmark passes.
 */

/** Long enough for the records feed to catch up after seeding 100 000 checkouts. */
const drainTimeoutMs = 10 * 60_000;
/** A close that takes longer than this is reported by the exit code, not waited for. */
const closeGraceMs = 20_000;

let closing: Promise<void> | undefined;

function stop(platform: RunningPlatform | undefined): Promise<void> {
  closing ??= (async () => {
    if (!platform) return;
    const timer = setTimeout(() => process.exit(1), closeGraceMs);
    timer.unref();
    await platform.close();
  })();
  return closing;
}

async function main(): Promise<void> {
  let platform: RunningPlatform | undefined;
  // Signals and a vanished parent stop the platform gracefully; exiting through process.exit
  // (not by the signal) is also what lets --cpu-prof write its profile.
  const stopAndExit = () => void stop(platform).finally(() => process.exit(0));
  process.once("SIGTERM", stopAndExit);
  process.once("SIGINT", stopAndExit);
  exitWithParent(() => stop(platform));

  // DATA_DIR as the benchmark set it: a directory on the disk it removes afterwards (temporary stores would never flush).
  platform = await startPlatform({ env: process.env, dataDir: process.env.DATA_DIR });
  const running = platform;
  const handlers: Record<PlatformCommand, () => Promise<unknown>> = {
    // Both threads' heaps, each read after a full collection on its own thread.
    memory: async () => readMemory(await servicesHeap(running)),
    drain: () => drain(running, drainTimeoutMs),
    "count-records": () => countRecords(running),
    "drop-data": () => dropData(running),
    // Closes and replies; the process then exits on the parent's SIGTERM or disconnect, so the
    // reply is never lost to an exit racing it.
    stop: () => stop(running),
  };
  answerRequests(handlers);
  const ready: PlatformReady = {
    gatewayUrl: platform.gatewayUrl,
    testApiKey: platform.testApiKey,
    projectId: platform.projectId,
    adminApiKey: platform.adminApiKey,
    servicesThreadId: await servicesThreadId(running),
  };
  announceReady(ready);
}

main().catch((error: unknown) => announceFailure(error));

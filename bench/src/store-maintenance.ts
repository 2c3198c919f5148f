import { apiKeysCollection, projectsCollection, signingKeysCollection } from "@bayad/gateway";
import type { RunningPlatform } from "@bayad/platform";
import { emptyCollection } from "./empty-collection.js";
import { NO_HEAP, type HeapFigures } from "./memory.js";

/** What the benchmark does to the platform's stores between scenarios, from inside the platform process. */

/** The functions run where the services run (on-services-thread.ts, built beside this file). */
const onServicesThread = new URL("./on-services-thread.js", import.meta.url).href;

/**
 * The gateway's credentials: kept by `dropData` so the benchmark's API key and service tokens
 * stay valid. Everything else, the gateway's idempotency records included, is data.
 */
const gatewayCredentialCollections = new Set([projectsCollection.name, apiKeysCollection.name, signingKeysCollection.name]);

const pollIntervalMs = 50;

/**
 * Resolves once no store has an unpublished outbox event and the records consumer has nothing
 * left to acknowledge, seen twice in a row (a relay may be between marking one batch published
 * and picking up the next). Throws after `timeoutMs` naming what was still pending.
 */
export async function drain(platform: RunningPlatform, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietPolls = 0;
  for (;;) {
    const pending = await platform.withServices<string>(onServicesThread, "pendingWork");
    quietPolls = pending === "" ? quietPolls + 1 : 0;
    if (quietPolls >= 2) return;
    if (Date.now() > deadline) throw new Error(`not drained after ${timeoutMs} ms: ${pending}`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

export function countRecords(platform: RunningPlatform): Promise<number> {
  return platform.withServices<number>(onServicesThread, "countRecords");
}

/**
 * Empties every collection of every store except the gateway's credentials, so that what the
 * process holds afterwards is what no stored document explains. Returns how many documents went.
 */
export async function dropData(platform: RunningPlatform): Promise<number> {
  let deleted = await platform.withServices<number>(onServicesThread, "dropServiceData");
  for (const name of await platform.gatewayStore.listCollections()) {
    if (gatewayCredentialCollections.has(name)) continue;
    deleted += await emptyCollection(platform.gatewayStore, name);
  }
  return deleted;
}

/** The operating system's id of the services' thread (see PlatformReady.servicesThreadId). */
export function servicesThreadId(platform: RunningPlatform): Promise<number | null> {
  return platform.withServices<number | null>(onServicesThread, "servicesThreadId");
}

/** The V8 heap of the services' thread after a full collection (none when they share the main thread's heap). */
export function servicesHeap(platform: RunningPlatform): Promise<HeapFigures> {
  if (platform.servicesThread === "main") return Promise.resolve(NO_HEAP);
  return platform.withServices<HeapFigures>(onServicesThread, "heapHere");
}

import { outboxCollection } from "@bayad/events";
import { apiKeysCollection, projectsCollection, signingKeysCollection } from "@bayad/gateway";
import type { RunningPlatform } from "@bayad/platform";
import { paymentRecordsCollection, RECORDS_DURABLE_NAME } from "@bayad/records-service";

/** What the benchmark does to the platform's stores between scenarios, from inside the platform process. */

type Store = RunningPlatform["stores"][keyof RunningPlatform["stores"]];

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
    const pending = await pendingWork(platform);
    quietPolls = pending === "" ? quietPolls + 1 : 0;
    if (quietPolls >= 2) return;
    if (Date.now() > deadline) throw new Error(`not drained after ${timeoutMs} ms: ${pending}`);
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

/** What is still in flight, as text; empty when nothing is. */
async function pendingWork(platform: RunningPlatform): Promise<string> {
  const parts: string[] = [];
  for (const [component, store] of Object.entries(platform.stores)) {
    if (!(await store.listCollections()).includes(outboxCollection.name)) continue;
    const unpublished = await store.collection(outboxCollection).count({ publishedAt: null });
    if (unpublished > 0) parts.push(`${component} outbox ${unpublished}`);
  }
  const lag = await platform.bus.pending(RECORDS_DURABLE_NAME);
  if (lag === undefined) parts.push("records consumer not known to the bus");
  else if (lag > 0) parts.push(`records consumer lag ${lag}`);
  return parts.join(", ");
}

export async function countRecords(platform: RunningPlatform): Promise<number> {
  return platform.stores.records.collection(paymentRecordsCollection).count({});
}

/**
 * Empties every collection of every store except the gateway's credentials, so that what the
 * process holds afterwards is what no stored document explains. Returns how many documents went.
 */
export async function dropData(platform: RunningPlatform): Promise<number> {
  let deleted = 0;
  for (const [component, store] of Object.entries(platform.stores) as [string, Store][]) {
    for (const name of await store.listCollections()) {
      if (component === "gateway" && gatewayCredentialCollections.has(name)) continue;
      deleted += await store.collection({ name }).deleteMany({});
    }
  }
  return deleted;
}

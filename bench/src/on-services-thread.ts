import { outboxCollection } from "@bayad/events";
import type { LocalServices } from "@bayad/platform";
import { paymentRecordsCollection, RECORDS_DURABLE_NAME } from "@bayad/records-service";
import { emptyCollection } from "./empty-collection.js";
import { osThreadIdHere } from "./thread-cpu.js";

/**
 * What the benchmark runs where the platform's services run (their worker thread, or the main
 * thread with PLATFORM_SERVICES_THREAD=main), through the platform's `withServices`. Everything
 * here takes the services' LocalServices and returns plain data.
 */

/** What is still in flight, as text; empty when nothing is: unpublished outbox events, records consumer lag. */
export async function pendingWork(services: LocalServices): Promise<string> {
  const parts: string[] = [];
  for (const [service, store] of Object.entries(services.stores)) {
    if (!(await store.listCollections()).includes(outboxCollection.name)) continue;
    const unpublished = await store.collection(outboxCollection).count({});
    if (unpublished > 0) parts.push(`${service} outbox ${unpublished}`);
  }
  const lag = await services.bus.pending(RECORDS_DURABLE_NAME);
  if (lag === undefined) parts.push("records consumer not known to the bus");
  else if (lag > 0) parts.push(`records consumer lag ${lag}`);
  return parts.join(", ");
}

export function countRecords(services: LocalServices): Promise<number> {
  return services.stores.records.collection(paymentRecordsCollection).count({});
}

/** Empties every collection of every service's store; returns how many documents went. */
export async function dropServiceData(services: LocalServices): Promise<number> {
  let deleted = 0;
  for (const store of Object.values(services.stores)) {
    for (const name of await store.listCollections()) deleted += await emptyCollection(store, name);
  }
  return deleted;
}

/** This thread's V8 heap after a full collection (a worker thread has its own heap). */
export { heapHere } from "./memory.js";

/** The operating system's id of the thread the services run on (null without /proc). */
export function servicesThreadId(): number | null {
  return osThreadIdHere() ?? null;
}

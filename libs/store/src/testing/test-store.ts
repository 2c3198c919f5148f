import { createEmbeddedStore, type EmbeddedStoreOptions } from "../embedded/embedded-store.js";
import type { Store } from "../port.js";

/**
 * The store the services' tests run on: the embedded store (temporary unless given a path) with
 * every transaction's work run twice, as MongoDB may run it again after a transient error (only
 * the second run commits). A callback with effects outside the store then fails its own tests.
 */
export function createTestStore(options: Omit<EmbeddedStoreOptions, "rerunTransactions"> = {}): Store {
  return createEmbeddedStore({ ...options, rerunTransactions: true });
}

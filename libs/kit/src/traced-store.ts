import type { Collection, CollectionDef, Doc, Store } from "@bayad/store";
import { isDuplicateKeyError } from "@bayad/store";
import { activeSpan, inSpan, SpanKind, tracerOf, tracingEnabled } from "./tracing.js";

/** The collection methods that become spans: every read and write. */
const operations = ["insertOne", "findOne", "find", "count", "updateOne", "findOneAndUpdate", "deleteOne", "deleteMany"] as const;

/**
 * `store` with a span around each collection call (`<operation> <collection>`) and each
 * transaction made within a trace (a request's, an event's), in `component`'s traces. With traces off (no tracer provider registered when the
 * store is opened) it is `store` itself: a store call then costs nothing for traces. A duplicate
 * key is an answer its callers expect, not a fault.
 */
export function traceStore(store: Store, component: string): Store {
  if (!tracingEnabled()) return store;
  const tracer = tracerOf(component);
  const span = <T>(name: string, collection: string | undefined, work: () => Promise<T>): Promise<T> => {
    // Only within a trace (a request's, an event's): the relays' and clocks' polls, several a
    // second, would each be a trace of one span.
    if (activeSpan() === undefined) return work();
    return inSpan(
      tracer,
      collection === undefined ? name : `${name} ${collection}`,
      { kind: SpanKind.CLIENT, attributes: { "db.operation.name": name, ...(collection === undefined ? {} : { "db.collection.name": collection }) } },
      work,
      { isFault: (error) => !isDuplicateKeyError(error) },
    );
  };
  return {
    collection<T extends Doc>(def: CollectionDef): Collection<T> {
      const inner = store.collection<T>(def);
      const traced = { name: inner.name } as Record<string, unknown>;
      for (const operation of operations) {
        const call = (inner[operation] as (...args: unknown[]) => Promise<unknown>).bind(inner);
        traced[operation] = (...args: unknown[]) => span(operation, inner.name, () => call(...args));
      }
      return traced as unknown as Collection<T>;
    },
    listCollections: () => store.listCollections(),
    ensureIndexes: () => span("ensureIndexes", undefined, () => store.ensureIndexes()),
    transaction: (work, options) => span("transaction", undefined, () => store.transaction(work, options)),
    flush: () => span("flush", undefined, () => store.flush()),
    // Readiness asks every few seconds: not traced.
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

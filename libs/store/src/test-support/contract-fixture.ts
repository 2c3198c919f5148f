import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect } from "vitest";
import { DuplicateKeyError, type Collection, type Doc, type IndexSpec, type Store } from "../port.js";

/** A document with any fields, for tests that are about the store rather than a domain type. */
export type AnyDoc = Doc & Record<string, unknown>;

export interface ContractFixture {
  /** The store opened for the current test (closed after it). */
  store(): Store;
  /** A collection no other test uses, so tests never see each other's data. */
  collection<T extends Doc = AnyDoc>(indexes?: IndexSpec[]): Collection<T>;
  /** Opens another store, for tests that need to close one themselves. */
  open(): Promise<Store>;
}

export function useContractFixture(openFresh: () => Promise<Store>): ContractFixture {
  const run = randomUUID().slice(0, 8);
  let sequence = 0;
  let current: Store | undefined;
  const extra: Store[] = [];

  beforeEach(async () => {
    current = await openFresh();
  });
  afterEach(async () => {
    await Promise.all([current, ...extra.splice(0)].map((store) => store?.close()));
    current = undefined;
  });

  const store = (): Store => {
    if (current === undefined) throw new Error("The contract store is only open inside a test");
    return current;
  };
  return {
    store,
    collection: <T extends Doc = AnyDoc>(indexes?: IndexSpec[]) =>
      store().collection<T>({ name: `contract_${run}_${++sequence}`, ...(indexes === undefined ? {} : { indexes }) }),
    open: async () => {
      const opened = await openFresh();
      extra.push(opened);
      return opened;
    },
  };
}

/** Waits for `promise` to reject with a DuplicateKeyError for `index`. */
export async function expectDuplicateKey(promise: Promise<unknown>, index: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DuplicateKeyError);
  expect((error as DuplicateKeyError).index).toBe(index);
}

/** The `_id`s a filter matches, in `_id` order, so assertions do not depend on natural order. */
export async function idsMatching(collection: Collection<AnyDoc>, filter: Record<string, unknown>): Promise<string[]> {
  return (await collection.find(filter, { sort: { _id: 1 } })).map((doc) => doc._id);
}

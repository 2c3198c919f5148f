import { ObjectId, type ClientSession, type Collection as DriverCollection, type Document } from "mongodb";
import type { Collection, Doc, Filter, FindOneAndUpdateOptions, FindOptions, OperationOptions, Update, UpdateOptions } from "../port.js";

export type StoredDoc = Doc & Document;

/** What a collection needs from its store: the port's options in the driver's terms, and error mapping. */
export interface CollectionContext {
  /**
   * The port's options for the driver: the port session swapped for the driver session behind
   * it, `durability` dropped (every write waits for the client's write concern), and outside a
   * transaction a server-side time limit on reads.
   */
  driverOptions: <O extends OperationOptions>(
    options: O | undefined,
    kind: "read" | "write",
  ) => Omit<O, "session" | "durability"> & { session?: ClientSession; maxTimeMS?: number };
  /** Runs a driver call for the port: refuses after close, maps errors to the port's. */
  call: <R>(operation: () => Promise<R>, options?: OperationOptions) => Promise<R>;
}

/**
 * A port collection over a driver collection. Filters, updates and sorts pass straight through:
 * the port's language is a subset of MongoDB's.
 */
export function createMongoCollection<T extends Doc>(name: string, driver: DriverCollection<StoredDoc>, context: CollectionContext): Collection<T> {
  const { call, driverOptions } = context;
  return {
    name,
    insertOne: (doc: T, options?: OperationOptions) =>
      call(async () => {
        await driver.insertOne(doc, driverOptions(options, "write"));
      }, options),
    findOne: (filter: Filter, options?: FindOptions) => call(async () => (await driver.findOne(filter, driverOptions(options, "read"))) as T | null, options),
    find: (filter: Filter, options?: FindOptions) => call(async () => (await driver.find(filter, driverOptions(options, "read")).toArray()) as T[], options),
    count: (filter: Filter, options?: OperationOptions) => call(() => driver.countDocuments(filter, driverOptions(options, "read")), options),
    updateOne: (filter: Filter, update: Update, options?: UpdateOptions) =>
      call(async () => {
        const result = await driver.updateOne(filter, withStringId(filter, update, options?.upsert), driverOptions(options, "write"));
        const counts = { matched: result.matchedCount, modified: result.modifiedCount };
        return result.upsertedId === null ? counts : { ...counts, upsertedId: String(result.upsertedId) };
      }, options),
    findOneAndUpdate: (filter: Filter, update: Update, options?: FindOneAndUpdateOptions) =>
      call(async () => {
        const found = await driver.findOneAndUpdate(filter, withStringId(filter, update, options?.upsert), {
          ...driverOptions(options, "read"),
          returnDocument: options?.returnDocument ?? "after",
          includeResultMetadata: false,
        });
        return found as T | null;
      }, options),
    deleteOne: (filter: Filter, options?: OperationOptions) => call(async () => (await driver.deleteOne(filter, driverOptions(options, "write"))).deletedCount, options),
    deleteMany: (filter: Filter, options?: OperationOptions) => call(async () => (await driver.deleteMany(filter, driverOptions(options, "write"))).deletedCount, options),
  };
}

/**
 * Left alone, an upsert whose filter does not fix `_id` makes the server generate an ObjectId, and
 * the port promises string ids; so such upserts get a string `_id` in ObjectId form instead.
 */
function withStringId(filter: Filter, update: Update, upsert: boolean | undefined): Update {
  const updateSetsId = update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined;
  if (!upsert || updateSetsId || pinsId(filter)) return update;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: new ObjectId().toHexString() } };
}

/** Whether an upsert's inserted document takes its `_id` from the filter (an equality on `_id`). */
function pinsId(filter: Filter): boolean {
  const condition: unknown = filter._id;
  if (condition !== undefined) {
    const operators = typeof condition === "object" && condition !== null ? Object.keys(condition) : [];
    if (!operators.some((key) => key.startsWith("$")) || operators.includes("$eq")) return true;
  }
  return Array.isArray(filter.$and) && filter.$and.some((part: Filter) => pinsId(part));
}

import type { IndexSpec } from "../port.js";
import { valueKey } from "./bson-values.js";
import type { LmdbEnvironment } from "./lmdb-environment.js";

/** An index in force, as stored: its spec, the id its entries start with, whether it is multikey. */
export interface IndexRecord {
  id: number;
  spec: IndexSpec;
  /**
   * Whether some document ever gave it more than one key or an array value: such an index still
   * finds candidates, but its order is not the order a sort on its fields asks for.
   */
  multikey: boolean;
}

/** A collection that exists: written to, or given indexes. */
export interface CollectionRecord {
  name: string;
  id: number;
  indexes: IndexRecord[];
}

const COLLECTION = "collection:";
const NEXT_ID = "next-id";

/**
 * What the store's metadata sub-database holds: the collections, the ids their documents and
 * index entries are keyed by, and the indexes in force. Read once at open, so a reopened store
 * enforces its indexes before `ensureIndexes` runs again; changed only inside write transactions
 * (`register`, `save`), and read again (`load`) when one of them aborted.
 */
export class Catalog {
  private collections = new Map<string, CollectionRecord>();
  /** Bumped whenever records change, so tables know to rebuild what they derived from them. */
  version = 0;

  constructor(private readonly env: LmdbEnvironment) {
    this.load();
  }

  load(): void {
    this.collections = new Map();
    for (const { value } of this.env.metadata.getRange({ start: COLLECTION, end: `${COLLECTION}\uffff` })) {
      const record = value as CollectionRecord;
      this.collections.set(record.name, record);
    }
    this.version++;
  }

  get(name: string): CollectionRecord | undefined {
    return this.collections.get(name);
  }

  names(): string[] {
    return [...this.collections.keys()];
  }

  /** Inside a write transaction: the collection's record, created (with a new id) if it has none. */
  register(name: string): CollectionRecord {
    let record = this.collections.get(name);
    if (record === undefined) {
      record = { name, id: this.allocateId(), indexes: [] };
      this.collections.set(name, record);
      this.save(record);
    }
    return record;
  }

  /** Inside a write transaction: stores the record as it now is. */
  save(record: CollectionRecord): void {
    this.env.metadata.putSync(`${COLLECTION}${record.name}`, record);
    this.version++;
  }

  /** Inside a write transaction: a number no collection or index has had in this store. */
  allocateId(): number {
    const id = (this.env.metadata.get(NEXT_ID) as number | undefined) ?? 1;
    this.env.metadata.putSync(NEXT_ID, id + 1);
    return id;
  }
}

/** Whether two specs ask for the same index (same name, keys in the same order, same options). */
export function sameSpec(a: IndexSpec, b: IndexSpec): boolean {
  return valueKey(a) === valueKey(b);
}

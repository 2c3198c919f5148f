import type { Collection, Durability, Session, Store } from "@bayad/store";
import type { NewEvent, Outbox } from "./outbox.js";

/** A stored resource whose every change bumps its version. */
export interface Versioned {
  _id: string;
  aggregateVersion: number;
}

export interface Change<T extends Versioned> {
  store: Store;
  collection: Collection<T>;
  outbox: Outbox;
  /** The resource as it is to be stored, its aggregateVersion already the new one. */
  record: T;
  /** The event announcing the change; its resource id and version come from `record`. */
  event: Omit<NewEvent, "resourceId" | "aggregateVersion">;
  /** Further writes that belong to the same change (run only if the change lands). */
  also?: (session: Session) => Promise<void>;
  /**
   * The fields in which `record` differs from the version before, when the caller knows them:
   * a later version then writes only those (the stored document at the version before is the
   * one the caller started from). Without it every field is written.
   */
  changed?: ReadonlyArray<keyof T & string>;
  /** Default "flushed"; "deferred" only where a later flushed write covers it (see the store port). */
  durability?: Durability;
}

/**
 * Writes a resource change and the event announcing it in one transaction. The first version is
 * inserted (a duplicate key propagates); later versions replace the stored document only if it
 * is still at the version before, so of two concurrent changes exactly one lands. Returns false
 * when another change got there first: re-read and decide again.
 */
export async function commitChange<T extends Versioned>(change: Change<T>): Promise<boolean> {
  return change.store.transaction((session) => writeChange(session, change), { durability: change.durability });
}

/**
 * The writes of commitChange inside a transaction the caller runs, for a step that changes
 * several resources at once (each with its own event). Returns false, having written nothing of
 * this change, when the stored version is not the one before: the caller should abort the whole
 * transaction (throw) so that none of its other changes land either.
 */
export async function writeChange<T extends Versioned>(
  session: Session,
  change: Omit<Change<T>, "store">,
): Promise<boolean> {
  const { record } = change;
  if (record.aggregateVersion === 1) {
    await change.collection.insertOne(record, { session });
  } else {
    const result = await change.collection.updateOne(
      { _id: record._id, aggregateVersion: record.aggregateVersion - 1 },
      { $set: fieldsToWrite(record, change.changed) },
      { session },
    );
    if (result.matched === 0) return false;
  }
  await change.also?.(session);
  await change.outbox.append(
    { ...change.event, resourceId: record._id, aggregateVersion: record.aggregateVersion },
    session,
  );
  return true;
}

function fieldsToWrite<T extends Versioned>(record: T, changed: ReadonlyArray<keyof T & string> | undefined): Partial<T> {
  if (changed === undefined) {
    const { _id, ...fields } = record;
    return fields as Partial<T>;
  }
  const fields: Partial<T> = {};
  for (const name of changed) fields[name] = record[name];
  return fields;
}

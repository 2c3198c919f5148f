import type { StateMachine } from "@bayad/kit";
import type { Collection, Session, Store } from "@bayad/store";
import type { EventSnapshot, Outbox } from "./outbox.js";
import { commitChange, writeChange, type Change, type Versioned } from "./versioned-change.js";
import { VersionConflict, retryVersionConflicts } from "./version-conflicts.js";

/** A stored resource with a status driven by a state table. */
export interface StatefulRecord<S extends string> extends Versioned {
  projectId: string;
  environment: "test" | "live";
  status: S;
  updatedAt: Date;
}

/** What moving one kind of resource needs: where it lives and how it is announced. */
export interface ResourceMover<T extends StatefulRecord<S>, S extends string, A extends string> {
  store: Store;
  collection: Collection<T>;
  outbox: Outbox;
  states: StateMachine<S, A>;
  /** The event name's first part: `<resource>.<new status>`, e.g. "checkout.paid". */
  resource: string;
  snapshot: (record: T) => EventSnapshot;
  now?: () => Date;
}

export interface MoveOptions<T> {
  /** Fields that change with the move. */
  extra?: Partial<T>;
  /** Further writes of the same change, in its transaction. */
  also?: (next: T, session: Session) => Promise<void>;
}

/**
 * Writes a new resource (version 1) with its first event, `<resource>.<status>`. A duplicate key
 * propagates, so callers can answer with what a concurrent request with the same key created.
 */
export async function createResource<T extends StatefulRecord<S>, S extends string, A extends string>(
  mover: ResourceMover<T, S, A>,
  record: T,
  options: Pick<MoveOptions<T>, "also"> & Pick<Change<T>, "durability"> = {},
): Promise<T> {
  await commitChange({
    store: mover.store,
    collection: mover.collection,
    outbox: mover.outbox,
    record,
    event: { name: `${mover.resource}.${record.status}`, caller: record, snapshot: mover.snapshot(record) },
    also: options.also ? (session) => options.also!(record, session) : undefined,
    durability: options.durability,
  });
  return record;
}

/**
 * Applies one move of a resource's state table, writing the new version and its event together.
 * If another change landed first, it re-reads the resource and decides again from its new
 * status (which may now refuse the move with INVALID_STATE_TRANSITION). A resource that changes
 * under every try is 409 CONCURRENT_MODIFICATION, with nothing written (see retryVersionConflicts).
 */
export async function moveResource<T extends StatefulRecord<S>, S extends string, A extends string>(
  mover: ResourceMover<T, S, A>,
  record: T,
  action: A,
  options: MoveOptions<T> = {},
): Promise<T> {
  let current = record;
  return retryVersionConflicts(async (attempt) => {
    if (attempt > 0) {
      const fresh = await mover.collection.findOne({ _id: current._id });
      if (!fresh) throw new Error(`${mover.resource} ${current._id} disappeared while it was being moved`);
      current = fresh;
    }
    const moved = await mover.store.transaction((session) => writeMove(session, mover, current, action, options));
    if (moved === false) throw new VersionConflict(current._id);
    return moved;
  });
}

/**
 * The writes of one move of `record`'s state table (event `<resource>.<new status>`) inside a
 * transaction the caller runs, for a step that changes several resources at once. A move the
 * table does not allow throws INVALID_STATE_TRANSITION. Returns the new version, or false, having
 * written nothing, when the stored version is no longer `record`'s: the caller should abort the
 * whole transaction (throw) and decide again from a fresh read.
 */
export function writeMove<T extends StatefulRecord<S>, S extends string, A extends string>(
  session: Session,
  mover: ResourceMover<T, S, A>,
  record: T,
  action: A,
  options: MoveOptions<T> = {},
): Promise<T | false> {
  const status = mover.states.next(record.status, action);
  return writeNextVersion(session, mover, record, status, { ...options, extra: { ...options.extra, status } as Partial<T> });
}

/**
 * Like writeMove, for a change that is no move of the state table (a renewal, a setting, or a
 * status decided by another rule): writes the next version of `record` with `options.extra`,
 * announced as `<resource>.<verb>`. Returns the new version, or false when it lost to another change.
 */
export async function writeNextVersion<T extends StatefulRecord<S>, S extends string, A extends string>(
  session: Session,
  mover: ResourceMover<T, S, A>,
  record: T,
  verb: string,
  options: MoveOptions<T> = {},
): Promise<T | false> {
  const next: T = {
    ...record,
    ...options.extra,
    aggregateVersion: record.aggregateVersion + 1,
    updatedAt: mover.now?.() ?? new Date(),
  };
  const written = await writeChange(session, {
    collection: mover.collection,
    outbox: mover.outbox,
    record: next,
    event: { name: `${mover.resource}.${verb}`, caller: next, snapshot: mover.snapshot(next) },
    also: options.also ? (inSession) => options.also!(next, inSession) : undefined,
    changed: [...(Object.keys(options.extra ?? {}) as Array<keyof T & string>), "aggregateVersion", "updatedAt"],
  });
  return written ? next : false;
}

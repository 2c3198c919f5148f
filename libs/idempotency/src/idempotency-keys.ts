import { createHash } from "node:crypto";
import { AppError, pauseAfterLostRace, type CallerContext } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Doc, type Session, type Store } from "@bayad/store";

/**
 * One Idempotency-Key as a service saw it: what its request did, kept for the key's window and
 * then removed by the store (a TTL index), so that after the window the key is free again, as it
 * is at the gateway. The resources themselves carry no unique key: the claim is written in the
 * same transaction as what the request changed, so neither exists without the other.
 */
export interface IdempotencyKeyRecord extends Doc {
  /** A digest of project, environment and key (the key itself is caller data of any length). */
  _id: string;
  projectId: string;
  environment: CallerContext["environment"];
  /** The rpc that used the key, e.g. "createRefund", "cancelCheckout". */
  operation: string;
  /** What it created or acted on. */
  resourceId: string;
  /** For an action: the resource as the action left it, which a retry answers with. */
  result?: unknown;
  createdAt: Date;
  /** When the window ends: the key is free from then on, whether or not the TTL sweep has run. */
  expiresAt: Date;
}

export const idempotencyKeysCollection: CollectionDef = {
  name: "idempotency_keys",
  indexes: [{ name: "idempotency_keys_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 }],
};

/** The caller of a mutation: whose key it is. */
export type KeyedCaller = Pick<CallerContext, "projectId" | "environment" | "idempotencyKeyCreatedAt"> & { idempotencyKey: string };

export interface KeyClaim {
  operation: string;
  resourceId: string;
  result?: unknown;
}

export interface IdempotencyKeys {
  /** How long a key is remembered. */
  readonly windowMs: number;
  /** The key's claim within its window, or null (a claim whose window has ended is deleted here). */
  find(caller: KeyedCaller): Promise<IdempotencyKeyRecord | null>;
  /**
   * Writes the claim inside `session`. If the key is claimed already (a concurrent request with
   * it won), the write fails with a duplicate key and so does the transaction: see `isTaken`.
   */
  claim(session: Session, caller: KeyedCaller, claim: KeyClaim): Promise<void>;
  /** Whether `error` is a failed claim. */
  isTaken(error: unknown): boolean;
}

/** The `idempotency_keys` collection of a service's store. */
export function createIdempotencyKeys(store: Store, options: { windowMs: number; now?: () => Date }): IdempotencyKeys {
  const keys = store.collection<IdempotencyKeyRecord>(idempotencyKeysCollection);
  const now = options.now ?? (() => new Date());
  const idOf = (caller: KeyedCaller) =>
    createHash("sha256").update(`${caller.projectId}\0${caller.environment}\0${caller.idempotencyKey}`).digest("base64url");

  return {
    windowMs: options.windowMs,

    async find(caller) {
      const _id = idOf(caller);
      const found = await keys.findOne({ _id });
      if (!found) return null;
      // A claim from before the gateway's record of this use belongs to an earlier use of the key,
      // which the gateway has forgotten: the key is free, as it is there.
      const earlierUse = caller.idempotencyKeyCreatedAt !== undefined && found.createdAt.getTime() < caller.idempotencyKeyCreatedAt;
      if (!earlierUse && found.expiresAt.getTime() > now().getTime()) return found;
      // The TTL sweep runs about once a minute: until it does, the claim is removed here, so that
      // the next claim of the key can be written.
      await keys.deleteOne({ _id, createdAt: found.createdAt });
      return null;
    },

    async claim(session, caller, claim) {
      // The window runs from when the gateway recorded the key, so that both layers forget it at
      // once (a reconciliation may re-drive a request long after); without one, from now.
      const at = new Date(Math.min(caller.idempotencyKeyCreatedAt ?? Number.POSITIVE_INFINITY, now().getTime()));
      await keys.insertOne(
        {
          _id: idOf(caller),
          projectId: caller.projectId,
          environment: caller.environment,
          operation: claim.operation,
          resourceId: claim.resourceId,
          ...(claim.result === undefined ? {} : { result: claim.result }),
          createdAt: at,
          expiresAt: new Date(at.getTime() + options.windowMs),
        },
        { session },
      );
    },

    isTaken: (error) => isDuplicateKeyError(error, "_id_"),
  };
}

// A claim found taken is answered from on the next pass (after a jittered pause: kit's
// lostRaceBackoff); only an expired claim the sweep had not removed yet, or a claim deleted
// between two reads, needs another, so a few passes are plenty.
const MAX_PASSES = 4;

function mismatch(): AppError {
  return new AppError("IDEMPOTENCY_KEY_PAYLOAD_MISMATCH", undefined, {
    details: ["Idempotency-Key: was first used with a different request"],
  });
}

/**
 * Creates a resource at most once per key and window. A key already used returns what it
 * created (`existing`); otherwise `create` runs and must call `claim` inside the transaction
 * that writes the resource. A concurrent request with the key that commits first makes this
 * one's transaction fail; it then answers with what the winner created.
 */
export async function createOnce<R>(
  keys: IdempotencyKeys,
  caller: KeyedCaller,
  operation: string,
  steps: {
    existing: (resourceId: string) => Promise<R | null>;
    create: (claim: (session: Session, resourceId: string) => Promise<void>) => Promise<R>;
  },
): Promise<R> {
  for (let pass = 1; ; pass++) {
    const claimed = await keys.find(caller);
    if (claimed) {
      if (claimed.operation !== operation) throw mismatch();
      const existing = await steps.existing(claimed.resourceId);
      if (existing) return existing;
      throw new Error(`${operation}: the resource ${claimed.resourceId} of an Idempotency-Key is missing`);
    }
    try {
      return await steps.create((session, resourceId) => keys.claim(session, caller, { operation, resourceId }));
    } catch (error) {
      if (pass >= MAX_PASSES) throw error;
      // A concurrent request with the key may have won, and this one failed on another of the
      // winner's writes first (its referenceId, say): the winner's resource is the answer then.
      if (!keys.isTaken(error) && !(await keys.find(caller).catch(() => null))) throw error;
      await pauseAfterLostRace(pass);
    }
  }
}

/**
 * Runs an action (a state change of one resource) at most once per key and window: a retry with
 * the key answers with the resource as the first run left it, however it has changed since, so
 * a request re-driven after an unknown outcome never answers INVALID_STATE_TRANSITION for its own
 * change. `act` must call `claim` inside the transaction of its change (moveResource's `also`).
 * When `act` fails, a concurrent run with the same key may have done the action: its outcome is
 * the answer then.
 */
export async function actOnce<R>(
  keys: IdempotencyKeys,
  caller: KeyedCaller,
  operation: string,
  resourceId: string,
  act: (claim: (session: Session, result: R) => Promise<void>) => Promise<R>,
): Promise<R> {
  const replay = async (): Promise<R | undefined> => {
    const claimed = await keys.find(caller);
    if (!claimed) return undefined;
    if (claimed.operation !== operation || claimed.resourceId !== resourceId) throw mismatch();
    return claimed.result as R;
  };
  for (let pass = 1; ; pass++) {
    const done = await replay();
    if (done !== undefined) return done;
    try {
      return await act((session, result) => keys.claim(session, caller, { operation, resourceId, result }));
    } catch (error) {
      if (keys.isTaken(error) && pass < MAX_PASSES) {
        await pauseAfterLostRace(pass);
        continue;
      }
      const raced = await replay().catch(() => undefined);
      if (raced !== undefined) return raced;
      throw error;
    }
  }
}

/**
 * Records an action that changed nothing (the resource already was as asked): a retry with the
 * key then answers the same, even if the resource has changed in between.
 */
export async function claimUnchanged<R>(
  store: Store,
  claim: (session: Session, result: R) => Promise<void>,
  result: R,
): Promise<R> {
  await store.transaction((session) => claim(session, result));
  return result;
}

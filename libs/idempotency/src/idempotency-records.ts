import { randomUUID } from "node:crypto";
import { isDuplicateKeyError, type CollectionDef, type Doc, type Store } from "@bayad/store";
import { AppError, openSealed, resealCollection, sealText, type Environment, type ResealCounts, type SealedValue, type SealingKeys } from "@bayad/kit";
import { RecentMemory } from "./recent-memory.js";

export type IdempotencyState = "in_progress" | "unknown" | "completed";

/** A stored response, replayed as it was first sent. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

/** One Idempotency-Key of one project and environment. */
export interface IdempotencyRecord extends Doc {
  _id: string;
  projectId: string;
  environment: Environment;
  idempotencyKey: string;
  operationId: string;
  /** requestFingerprint: a keyed digest, from which the request cannot be guessed back. */
  fingerprint: string;
  state: IdempotencyState;
  /** Which attempt holds the record; only that attempt may settle it. */
  attempt: string;
  /** in_progress: when the holder's lease runs out; unknown: when reconciliation may try again. */
  leaseUntil: Date;
  reconcileAttempts: number;
  /**
   * The validated request (its canonical JSON), sealed (AES-256-GCM under the gateway's secret,
   * bound to this record's id), so that reconciliation can run it again and nobody reading the
   * store learns what it held (an OTP request's phone number or code); dropped once completed.
   */
  request?: string;
  /**
   * JSON of the StoredResponse once completed, kept as sent: it holds nothing the service does
   * not keep itself, and OTP answers name their destination masked (`+63*******4567`).
   */
  response?: string;
  /**
   * Instead of `response`, for an operation whose answer carries a secret (x-secret-response: a
   * webhook signing secret): its JSON sealed like the request, opened only to replay it.
   */
  sealedResponse?: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The records' writes do not wait for the disk (the store port's "deferred" durability): each is
 * committed, visible at once and kept through a process kill, and reaches the disk with the next
 * flush, so a request's one flush in line is its service's. An operating-system crash may take a
 * record back to what it was (or away): a retry then claims the key again and the service, whose
 * own claim was flushed with its change (idempotency-keys.ts), answers with what it did; a record
 * left in progress is reconciled the same way. See docs/architecture.md's idempotency sequence.
 */
const deferred = { durability: "deferred" } as const;

const idempotencyCollection: CollectionDef = {
  name: "idempotency_records",
  indexes: [
    { name: "idempotency_claimable", keys: { state: 1, leaseUntil: 1 } },
    { name: "idempotency_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
};

export interface NewAttempt {
  id: string;
  projectId: string;
  environment: Environment;
  idempotencyKey: string;
  operationId: string;
  fingerprint: string;
  /** The request's canonical JSON, in clear: begin() seals it. */
  request: string;
  leaseMs: number;
  windowMs: number;
}

/** `createdAt`: when this use of the key began, which the services' windows run from too. */
export type BeginResult = { started: true; attempt: string; createdAt: Date } | { started: false; existing: IdempotencyRecord };

/**
 * Tries of begin() to claim or read a key. A try is lost only when a concurrent request with the
 * key deleted or replaced its record in between, so one that keeps losing meets a key in use.
 */
const beginTurns = 5;

const requestPurpose = "idempotency-request";
const responsePurpose = "idempotency-response";

/** How many ids the replay hint (see begin) remembers, in each of its two generations. */
const recentIdsPerGeneration = 5_000;

/** How many completed records begin() keeps to replay from the heap, in each of its two generations. */
const completedPerGeneration = 1_000;

/** What a record holds sealed, for a reseal. */
function sealedValuesOf(record: IdempotencyRecord): SealedValue[] {
  const values: SealedValue[] = [];
  if (record.request !== undefined) values.push({ path: "request", purpose: requestPurpose, context: record._id, sealed: record.request });
  if (record.sealedResponse !== undefined) values.push({ path: "sealedResponse", purpose: responsePurpose, context: record._id, sealed: record.sealedResponse });
  return values;
}

export interface IdempotencyRecordsOptions {
  /** The GATEWAY_SECRETS ring: seals the requests it keeps, and the answers that carry a secret. */
  secret: SealingKeys;
  /** The operations whose answers carry a secret (x-secret-response): kept sealed. */
  secretResponses: ReadonlySet<string>;
}

/** The only code that knows the `idempotency_records` collection. */
export function createIdempotencyRecords(store: Store, options: IdempotencyRecordsOptions) {
  const records = store.collection<IdempotencyRecord>(idempotencyCollection);
  const { secret, secretResponses } = options;
  /**
   * Ids this process claimed or found taken lately. A claim seals its request (AES-GCM) before it
   * learns whether the key is taken, which a replay does not need: a key seen lately is most
   * likely a replay, so it is looked up first. Only a hint: whatever it says, the insert decides.
   */
  const recentIds = new RecentMemory<string, true>(recentIdsPerGeneration);
  /**
   * Completed records this process read lately, replayed without reading the store again. A
   * completed record is final until it expires, in every replica: nothing settles, claims or
   * replaces it before its expiresAt (begin replaces only expired records, reconciliation claims
   * only unsettled ones), so a copy read once answers like the store until then, and is not used
   * after. Records whose answer is sealed are not kept: a reseal and the old key's retirement
   * would leave the copy unopenable.
   */
  const completed = new RecentMemory<string, IdempotencyRecord>(completedPerGeneration);
  const keepIfFinal = (record: IdempotencyRecord) => {
    if (record.state === "completed" && record.sealedResponse === undefined) completed.set(record._id, record);
  };

  return {
    /**
     * Claims the key for a new attempt, atomically: of any number of concurrent requests with
     * one key exactly one starts. An expired record is replaced.
     */
    async begin(input: NewAttempt): Promise<BeginResult> {
      const kept = completed.get(input.id);
      if (kept && kept.expiresAt.getTime() > Date.now()) return { started: false, existing: kept };
      if (recentIds.has(input.id)) {
        const existing = await records.findOne({ _id: input.id });
        if (existing && existing.expiresAt.getTime() > Date.now()) {
          keepIfFinal(existing);
          return { started: false, existing };
        }
      }
      recentIds.set(input.id, true);
      let sealedRequest: string | undefined;
      for (let turn = 0; turn < beginTurns; turn++) {
        const now = new Date();
        const attempt = randomUUID();
        sealedRequest ??= sealText(secret, requestPurpose, input.id, input.request);
        try {
          await records.insertOne({
            _id: input.id,
            projectId: input.projectId,
            environment: input.environment,
            idempotencyKey: input.idempotencyKey,
            operationId: input.operationId,
            fingerprint: input.fingerprint,
            state: "in_progress",
            attempt,
            leaseUntil: new Date(now.getTime() + input.leaseMs),
            reconcileAttempts: 0,
            request: sealedRequest,
            createdAt: now,
            expiresAt: new Date(now.getTime() + input.windowMs),
          }, deferred);
          return { started: true, attempt, createdAt: now };
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
        const existing = await records.findOne({ _id: input.id });
        if (!existing) continue;
        if (existing.expiresAt.getTime() > now.getTime()) {
          keepIfFinal(existing);
          return { started: false, existing };
        }
        await records.deleteOne({ _id: input.id, attempt: existing.attempt }, deferred);
      }
      throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
    },

    /**
     * Settles the record with the response of its operation, if `attempt` still holds it; the
     * request is no longer needed.
     */
    async complete(id: string, attempt: string, operationId: string, response: StoredResponse): Promise<void> {
      const json = JSON.stringify(response);
      const kept = secretResponses.has(operationId) ? { sealedResponse: sealText(secret, responsePurpose, id, json) } : { response: json };
      await records.updateOne({ _id: id, attempt }, { $set: { state: "completed", ...kept }, $unset: { request: true } }, deferred);
    },

    /** Gives the key up, if `attempt` still holds it: the request was turned away untouched. */
    async release(id: string, attempt: string): Promise<void> {
      await records.deleteOne({ _id: id, attempt }, deferred);
    },

    /** The outcome is not known: reconciliation may claim the record from `retryAt` on. */
    async markUnknown(id: string, attempt: string, retryAt: Date): Promise<void> {
      await records.updateOne({ _id: id, attempt }, { $set: { state: "unknown", leaseUntil: retryAt } }, deferred);
    },

    /**
     * Claims a record whose outcome is unknown or whose holder's lease ran out (it crashed), for
     * one reconciliation attempt. Atomic, so replicas never reconcile the same record at once.
     */
    claimForReconciliation(leaseMs: number, id?: string): Promise<IdempotencyRecord | null> {
      const now = new Date();
      return records.findOneAndUpdate(
        { ...(id ? { _id: id } : {}), state: { $in: ["in_progress", "unknown"] }, leaseUntil: { $lte: now } },
        {
          $set: { state: "in_progress", attempt: randomUUID(), leaseUntil: new Date(now.getTime() + leaseMs) },
          $inc: { reconcileAttempts: 1 },
        },
        { sort: { leaseUntil: 1 }, returnDocument: "after" },
      );
    },

    find(id: string): Promise<IdempotencyRecord | null> {
      return records.findOne({ _id: id });
    },

    /**
     * The canonical JSON of the request an unsettled record holds, opened. Throws when it cannot
     * be opened: sealed under another GATEWAY_SECRET, or altered.
     */
    requestOf(record: IdempotencyRecord): string {
      if (record.request === undefined) throw new Error(`idempotency record ${record._id} has no stored request`);
      return openSealed(secret, requestPurpose, record._id, record.request);
    },

    /** The response a completed record replays, opened when it was kept sealed. */
    responseOf(record: IdempotencyRecord): StoredResponse {
      const json = record.sealedResponse === undefined ? record.response : openSealed(secret, responsePurpose, record._id, record.sealedResponse);
      if (json === undefined) throw new Error(`idempotency record ${record._id} has no stored response`);
      return JSON.parse(json) as StoredResponse;
    },

    /**
     * Seals every sealed value again under the ring's newest key (bayad secrets reseal), and first
     * the answers an earlier version kept in clear for operations whose answers carry a secret
     * (counted as resealed). Left alone, those expire with their window.
     */
    async resealSecrets(): Promise<ResealCounts> {
      let sealedNow = 0;
      if (secretResponses.size > 0) {
        const clear = await records.find({ operationId: { $in: [...secretResponses] }, response: { $exists: true } });
        for (const record of clear) {
          const written = await records.updateOne(
            { _id: record._id, response: record.response },
            { $set: { sealedResponse: sealText(secret, responsePurpose, record._id, record.response!) }, $unset: { response: true } },
          );
          sealedNow += written.matched;
        }
      }
      // What was sealed just now is found under the newest key below: count it once, as resealed.
      const counts = await resealCollection(records, secret, sealedValuesOf);
      return { ...counts, resealed: counts.resealed + sealedNow, current: Math.max(0, counts.current - sealedNow) };
    },
  };
}

export type IdempotencyRecords = ReturnType<typeof createIdempotencyRecords>;

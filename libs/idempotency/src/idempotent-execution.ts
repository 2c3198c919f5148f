import { AppError, type CallerContext } from "@bayad/kit";
import { canonicalJson, recordIdsUnder, requestFingerprint } from "./fingerprint.js";
import type { IdempotencyRecords, StoredResponse } from "./idempotency-records.js";
import type { IdempotencyKind } from "./idempotency-window.js";
import type { ErrorBody, OperationRunner } from "./operation-runner.js";
import { settleOutcome } from "./outcome.js";
import type { Reconciler } from "./reconciler.js";

/** What execution needs to know of an operation (the gateway's OperationSpec has it). */
export interface IdempotentOperation {
  operationId: string;
  /** Its window and unknown-outcome code; null (no key) is run as a payment operation. */
  idempotency: IdempotencyKind | null;
}

export interface IdempotentExecutionOptions<Input> {
  records: IdempotencyRecords;
  reconciler: Reconciler;
  run: OperationRunner<Input>;
  errorBody: ErrorBody;
  /** GATEWAY_SECRET: keys the record ids and the request fingerprints. */
  secret: string;
  /** How long an attempt may hold a key before it is presumed crashed. */
  leaseMs: number;
  /** How long a response is replayed, per kind of operation (readIdempotencyWindowMs). */
  windowMs: Record<IdempotencyKind, number>;
  /** Fault injection for tests: runs after the outcome is known and before it is recorded. */
  afterOutcome?: (operationId: string) => void | Promise<void>;
}

export interface ExecutionResult {
  response: StoredResponse;
  replayed: boolean;
}

const unknownOutcomeCode = { payment: "PAYMENT_OUTCOME_UNKNOWN", otp: "IDEMPOTENCY_OUTCOME_UNKNOWN" } as const;

/**
 * Idempotency, end to end: the same key and request replay the first response; the same key
 * with another request, a key still in flight, and a key whose outcome is not known yet are
 * 409s with their own codes. Unknown outcomes are reconciled in the background.
 */
export function createIdempotentExecution<Input>(options: IdempotentExecutionOptions<Input>): IdempotentExecution<Input> {
  const { records, reconciler } = options;
  const recordIdOf = recordIdsUnder(options.secret);

  return async function execute(spec, caller, input) {
    const kind = spec.idempotency ?? "payment";
    const id = recordIdOf(caller.projectId, caller.environment, caller.idempotencyKey);
    // One canonical text of the input: digested for the fingerprint and kept, sealed, for reconciliation.
    const request = canonicalJson(input);
    const fingerprint = requestFingerprint(options.secret, spec.operationId, request);
    const begun = await records.begin({
      id,
      projectId: caller.projectId,
      environment: caller.environment,
      idempotencyKey: caller.idempotencyKey,
      operationId: spec.operationId,
      fingerprint,
      request,
      leaseMs: options.leaseMs,
      windowMs: options.windowMs[kind],
    });

    if (!begun.started) {
      const existing = begun.existing;
      if (existing.fingerprint !== fingerprint) {
        throw new AppError("IDEMPOTENCY_KEY_PAYLOAD_MISMATCH", undefined, {
          details: ["Idempotency-Key: was first used with a different request"],
        });
      }
      if (existing.state === "completed") return { response: records.responseOf(existing), replayed: true };
      if (existing.state === "in_progress" && existing.leaseUntil.getTime() > Date.now()) {
        throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
      }
      // Its holder crashed or its outcome is unknown: reconcile now rather than at the next sweep.
      void reconciler.reconcileNow(id).catch(() => undefined);
      throw new AppError(unknownOutcomeCode[kind]);
    }

    const keyed = { ...caller, idempotencyKeyCreatedAt: begun.createdAt.getTime() };
    const outcome = await settleOutcome(() => options.run(spec.operationId, input, keyed), options.errorBody, caller.correlationId);
    await options.afterOutcome?.(spec.operationId);
    if (outcome.known) {
      await records.complete(id, begun.attempt, spec.operationId, outcome.response);
      return { response: outcome.response, replayed: false };
    }
    if ("refused" in outcome || "invalid" in outcome) {
      // Nothing happened, so the key is free again: a later retry with it is a first attempt.
      await records.release(id, begun.attempt);
      throw outcome.error;
    }
    await records.markUnknown(id, begun.attempt, new Date());
    void reconciler.reconcileNow(id).catch(() => undefined);
    // A store whose disk refuses writes answers as itself (503, retry later), not as a payment in
    // doubt: what it refused is stored nowhere, and a commit whose flush failed is reconciled
    // under this key like any other unknown outcome.
    if (outcome.error.code === "STORE_UNAVAILABLE") throw outcome.error;
    throw new AppError(unknownOutcomeCode[kind], undefined, { cause: outcome.error });
  };
}

export type IdempotentExecution<Input> = (
  spec: IdempotentOperation,
  caller: CallerContext & { idempotencyKey: string },
  input: Input,
) => Promise<ExecutionResult>;

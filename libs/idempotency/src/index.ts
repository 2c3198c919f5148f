// The gateway's half: one record per Idempotency-Key, the execution that claims and settles it,
// and the reconciler that settles what was left unknown.
export {
  createIdempotencyRecords,
  type IdempotencyRecord,
  type IdempotencyRecords,
  type IdempotencyRecordsOptions,
  type StoredResponse,
} from "./idempotency-records.js";
export {
  createIdempotentExecution,
  type IdempotentExecution,
  type IdempotentExecutionOptions,
  type IdempotentOperation,
  type ExecutionResult,
} from "./idempotent-execution.js";
export { createReconciler, type Reconciler, type ReconcilerOptions } from "./reconciler.js";
export type { OperationRunner, ErrorBody } from "./operation-runner.js";

// The services' half: the key claimed in the transaction of what its request changed.
export {
  actOnce,
  claimUnchanged,
  createIdempotencyKeys,
  createOnce,
  idempotencyKeysCollection,
  type IdempotencyKeyRecord,
  type IdempotencyKeys,
  type KeyClaim,
  type KeyedCaller,
} from "./idempotency-keys.js";

// Both halves: one window per kind of operation, from the same variables.
export { defaultIdempotencyWindowSeconds, readIdempotencyWindowMs, type IdempotencyKind } from "./idempotency-window.js";

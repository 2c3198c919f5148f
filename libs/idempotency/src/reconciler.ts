import { backoffDelay, type Logger } from "@bayad/kit";
import type { IdempotencyRecord, IdempotencyRecords } from "./idempotency-records.js";
import type { ErrorBody, OperationRunner } from "./operation-runner.js";
import { settleOutcome } from "./outcome.js";

export interface ReconcilerOptions<Input> {
  records: IdempotencyRecords;
  /** Runs a stored request again: it reads back as the Input the runner was first given. */
  run: OperationRunner<Input>;
  errorBody: ErrorBody;
  leaseMs: number;
  intervalMs: number;
  /**
   * First retry delay after a reconciliation that still could not learn the outcome; later ones
   * double (jittered, kit's backoffDelay) up to five minutes.
   */
  retryBaseMs: number;
  logger: Logger;
}

const maxRetryDelayMs = 5 * 60_000;
/**
 * Records one sweep reconciles at most; the next tick goes on with the rest. Each claim pushes its
 * record's lease forward, so a sweep ends anyway: this bounds one that retries fail fast enough
 * to come due again within it.
 */
const sweepLimit = 1_000;

/**
 * Resolves keys whose outcome is unknown (the service timed out or failed, or the gateway holding
 * the key crashed) by running the stored request again with the same Idempotency-Key. Services
 * record the key on what they create, so the second run returns what the first one made instead
 * of making it twice. Safe with several gateway replicas: each record is claimed atomically.
 */
export function createReconciler<Input>(options: ReconcilerOptions<Input>) {
  const { records, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  async function reconcile(record: IdempotencyRecord): Promise<void> {
    let input: Input;
    try {
      // Only completed records drop their request, and only in_progress and unknown ones are claimed.
      input = JSON.parse(records.requestOf(record)) as Input;
    } catch (error) {
      // Sealed under a GATEWAY_SECRET since changed: record ids are keyed with it too, so no
      // request finds this record any more and it can never be settled. Give it up.
      await records.release(record._id, record.attempt);
      logger.error({ operationId: record.operationId, err: error }, "idempotency record released: its request cannot be opened (GATEWAY_SECRET changed?)");
      return;
    }
    const caller = {
      projectId: record.projectId,
      environment: record.environment,
      idempotencyKey: record.idempotencyKey,
      idempotencyKeyCreatedAt: record.createdAt.getTime(),
      correlationId: `reconcile-${record.attempt}`,
    };
    const outcome = await settleOutcome(() => options.run(record.operationId, input, caller), options.errorBody, caller.correlationId);
    if (outcome.known) {
      await records.complete(record._id, record.attempt, record.operationId, outcome.response);
      logger.info({ operationId: record.operationId, status: outcome.response.status }, "idempotency key reconciled");
      return;
    }
    if ("invalid" in outcome) {
      // The stored request is invalid, so the first attempt did nothing either: the key is free.
      await records.release(record._id, record.attempt);
      logger.info({ operationId: record.operationId, code: outcome.error.code }, "idempotency key released: its request is invalid");
      return;
    }
    const delay = backoffDelay({ initialDelayMs: options.retryBaseMs, maxDelayMs: maxRetryDelayMs }, record.reconcileAttempts);
    await records.markUnknown(record._id, record.attempt, new Date(Date.now() + delay));
    logger.warn({ operationId: record.operationId, err: outcome.error, retryInMs: delay }, "idempotency key still unresolved");
  }

  async function sweep(): Promise<void> {
    for (let reconciled = 0; reconciled < sweepLimit; reconciled++) {
      const record = await records.claimForReconciliation(options.leaseMs);
      if (!record) return;
      await reconcile(record);
    }
  }

  function sweepOnce(): Promise<void> {
    sweeping ??= sweep()
      .catch((error: unknown) => logger.error({ err: error }, "idempotency reconciliation sweep failed"))
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  }

  return {
    start(): void {
      timer = setInterval(() => void sweepOnce(), options.intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await sweeping;
    },
    /** Reconciles one record now, if it is claimable (a retry just found it unresolved). */
    async reconcileNow(id: string): Promise<void> {
      const record = await records.claimForReconciliation(options.leaseMs, id);
      if (record) await reconcile(record);
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;

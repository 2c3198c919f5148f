import { AppError, CURRENCY, newId, notFound, type CallerContext, type Logger } from "@bayad/kit";
import { createResource, moveResource, type Outbox } from "@bayad/events";
import type { Store } from "@bayad/store";
import {
  askProvider,
  fitsQrPhText,
  MAX_QRPH_AMOUNT_MINOR,
  pageTokenMatches,
  providerOf,
  renderQrPng,
  type PayerAction,
  type PaymentProviders,
} from "@bayad/provider";
import { paymentIntentStates, paymentIntentToProto, type PaymentIntentRecord } from "./payment-intent.js";
import type { PaymentIntentsRepository } from "./payment-intents-repository.js";

export interface PaymentIntentsDeps {
  store: Store;
  repository: PaymentIntentsRepository;
  outbox: Outbox;
  providers: PaymentProviders;
  logger: Logger;
  /** The clock that dates changes and decides expiry; tests move it instead of waiting. */
  now: () => Date;
}

type MutatingCaller = CallerContext & { idempotencyKey: string };

export interface CreatePaymentIntentInput {
  referenceId: string;
  amountMinor: number;
}

export interface CreateQrPhPaymentIntentInput extends CreatePaymentIntentInput {
  description: string;
  /** 0 means the default. */
  expirySeconds: number;
}

const qrPhExpirySeconds = { min: 60, max: 9000, default: 1800 } as const;

type Action = Parameters<typeof paymentIntentStates.next>[1];

/** How payment intents are written: their collection, state table and events. */
function paymentIntentMover(deps: PaymentIntentsDeps) {
  return {
    store: deps.store,
    collection: deps.repository.collection,
    outbox: deps.outbox,
    states: paymentIntentStates,
    resource: "payment_intent",
    snapshot: (next: PaymentIntentRecord) => ({ case: "paymentIntent" as const, value: paymentIntentToProto(next) }),
    now: deps.now,
  };
}

function move(deps: PaymentIntentsDeps, record: PaymentIntentRecord, action: Action, extra: Partial<PaymentIntentRecord> = {}) {
  return moveResource(paymentIntentMover(deps), record, action, { extra });
}

/** Writes a new intent with its first event, or returns the one this Idempotency-Key created. */
async function insert(deps: PaymentIntentsDeps, caller: MutatingCaller, record: PaymentIntentRecord) {
  try {
    return await createResource(paymentIntentMover(deps), record);
  } catch (error) {
    if (!deps.repository.isIdempotencyConflict(error)) throw error;
    // A concurrent request with the same key won the race: answer with what it created.
    const winner = await deps.repository.findByIdempotencyKey(caller, caller.idempotencyKey);
    if (!winner) throw error;
    return winner;
  }
}

function newRecord(
  deps: PaymentIntentsDeps,
  caller: MutatingCaller,
  input: CreatePaymentIntentInput,
): Omit<PaymentIntentRecord, "status" | "paymentMethod"> {
  const now = deps.now();
  return {
    _id: newId("pi"),
    projectId: caller.projectId,
    environment: caller.environment,
    referenceId: input.referenceId,
    amountMinor: input.amountMinor,
    currency: CURRENCY,
    idempotencyKey: caller.idempotencyKey,
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** Creates a card payment intent, `requires_action` until confirmed. A repeated key returns it again. */
export async function createPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, input: CreatePaymentIntentInput) {
  providerOf(deps.providers, caller.environment);
  const existing = await deps.repository.findByIdempotencyKey(caller, caller.idempotencyKey);
  if (existing) return existing;
  return insert(deps, caller, { ...newRecord(deps, caller, input), status: "requires_action", paymentMethod: "card" });
}

/**
 * What a QR Ph code can carry, checked before anything is asked or written: its amount field holds
 * 13 characters, and its reference label printable ASCII only (accents folded, the rest dropped).
 * `expirySeconds` is the one asked for, or the default.
 */
function qrPhProblems(input: CreateQrPhPaymentIntentInput, expirySeconds: number): string[] {
  const problems: string[] = [];
  if (!fitsQrPhText(input.referenceId)) {
    problems.push("referenceId: must contain a character a QR Ph code can carry (printable ASCII; accented letters count)");
  }
  if (input.amountMinor > MAX_QRPH_AMOUNT_MINOR) {
    problems.push(`amount.amountMinor: must be at most ${MAX_QRPH_AMOUNT_MINOR}, the largest amount a QR Ph code holds`);
  }
  if (!Number.isInteger(expirySeconds) || expirySeconds < qrPhExpirySeconds.min || expirySeconds > qrPhExpirySeconds.max) {
    problems.push(`expirySeconds: must be an integer from ${qrPhExpirySeconds.min} to ${qrPhExpirySeconds.max}`);
  }
  return problems;
}

/**
 * Creates a QR Ph payment intent: the provider makes the code first, so the intent is written
 * once, ready (`awaiting_next_action`), with its payload and its expiry. A repeated key returns
 * the intent it created.
 */
export async function createQrPhPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, input: CreateQrPhPaymentIntentInput) {
  const provider = providerOf(deps.providers, caller.environment);
  const expirySeconds = input.expirySeconds || qrPhExpirySeconds.default;
  const problems = qrPhProblems(input, expirySeconds);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  const existing = await deps.repository.findByIdempotencyKey(caller, caller.idempotencyKey);
  if (existing) return existing;

  const base = newRecord(deps, caller, input);
  const code = await askProvider(() =>
    provider.createQrPh(
      {
        paymentIntentId: base._id,
        referenceId: input.referenceId,
        amount: { amountMinor: input.amountMinor, currency: CURRENCY },
        description: input.description,
      },
      { environment: caller.environment, idempotencyKey: caller.idempotencyKey },
    ),
  );
  return insert(deps, caller, {
    ...base,
    status: "awaiting_next_action",
    paymentMethod: "qrph",
    ...(input.description ? { description: input.description } : {}),
    providerReference: code.providerReference,
    qrPayload: code.payload,
    qrCodeImageUrl: code.imageUrl,
    pageToken: code.pageToken,
    expirySeconds,
    expiresAt: new Date(base.createdAt.getTime() + expirySeconds * 1000),
  });
}

export async function getPaymentIntent(deps: PaymentIntentsDeps, caller: CallerContext, paymentIntentId: string) {
  const record = await deps.repository.findById(caller, paymentIntentId);
  if (!record) throw notFound("payment intent", paymentIntentId);
  return record;
}

/**
 * Hands a `requires_action` card intent to the provider: `processing` when it accepts, `failed`
 * when it declines. The move is checked before the provider is asked, so an illegal confirm
 * never reaches it; the provider call carries this request's Idempotency-Key.
 */
export async function confirmPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, paymentIntentId: string) {
  const record = await getPaymentIntent(deps, caller, paymentIntentId);
  const provider = providerOf(deps.providers, record.environment);
  paymentIntentStates.next(record.status, "confirm");
  const confirmation = await askProvider(() =>
    provider.confirmPaymentIntent(
      { paymentIntentId: record._id, referenceId: record.referenceId, amount: { amountMinor: record.amountMinor, currency: record.currency } },
      { environment: record.environment, idempotencyKey: caller.idempotencyKey },
    ),
  );
  const action = confirmation.outcome === "declined" ? "decline" : "confirm";
  return move(deps, record, action, { providerReference: confirmation.providerReference });
}

export async function cancelPaymentIntent(deps: PaymentIntentsDeps, caller: CallerContext, paymentIntentId: string) {
  return move(deps, await getPaymentIntent(deps, caller, paymentIntentId), "cancel");
}

const isDue = (record: PaymentIntentRecord, now: Date) =>
  record.status === "awaiting_next_action" && record.expiresAt !== undefined && record.expiresAt <= now;

/** Test helpers: the provider reports the payment; the sandbox declines its decline scenario. */
export async function simulatePaymentIntentOutcome(deps: PaymentIntentsDeps, caller: CallerContext, paymentIntentId: string, action: PayerAction) {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  let record = await getPaymentIntent(deps, caller, paymentIntentId);
  // A code past its expiry cannot be paid, whether or not the sweep has reached it yet.
  if (isDue(record, deps.now())) record = await move(deps, record, "expire");
  const amount = { amountMinor: record.amountMinor, currency: record.currency };
  const decided = providerOf(deps.providers, record.environment).decidePayment(amount, {}, action);
  return decided === "paid"
    ? move(deps, record, "succeed", { refundableMinor: record.amountMinor })
    : move(deps, record, "fail");
}

/**
 * Expires the unpaid QR Ph intents whose code is past its expiresAt. Safe on several replicas at
 * once: each move is a versioned write, so one replica's expiry lands and the other finds the
 * intent already expired (or paid in the meantime) and leaves it.
 */
export async function expireDuePaymentIntents(deps: PaymentIntentsDeps, limit = 50): Promise<number> {
  const due = await deps.repository.findDueForExpiry(deps.now(), limit);
  let expired = 0;
  for (const record of due) {
    try {
      await move(deps, record, "expire");
      expired += 1;
    } catch (error) {
      if (error instanceof AppError && error.code === "INVALID_STATE_TRANSITION") continue;
      deps.logger.warn({ err: error, paymentIntentId: record._id }, "payment intent not expired");
    }
  }
  return expired;
}

/** The sandbox's QR Ph image, reached with the page token of qrCodeImageUrl. */
export async function getQrPhImage(deps: PaymentIntentsDeps, paymentIntentId: string, pageToken: string) {
  const record = await deps.repository.findByIdForPage(paymentIntentId);
  if (!record?.qrPayload || record.environment !== "test" || !pageTokenMatches(record.pageToken, pageToken)) {
    throw new AppError("RESOURCE_NOT_FOUND", "No such QR code.");
  }
  return { png: await renderQrPng(record.qrPayload), payload: record.qrPayload };
}

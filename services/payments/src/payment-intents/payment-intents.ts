import { AppError, CURRENCY, newId, notFound, randomBase62, type CallerContext, type Logger } from "@bayad/kit";
import { createResource, moveResource, type Outbox } from "@bayad/events";
import { actOnce, createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import type { Session, Store } from "@bayad/store";
import {
  askProvider,
  fitsQrPhText,
  MAX_QRPH_AMOUNT_MINOR,
  chooseProvider,
  pageTokenMatches,
  payerPaymentFacts,
  providerOfResource,
  renderQrPng,
  type PayerAction,
  type PaymentProviders,
} from "@bayad/provider";
import { paidByRedirect, paymentIntentStates, paymentIntentToProto, type PaymentIntentRecord } from "./payment-intent.js";
import type { PaymentIntentsRepository } from "./payment-intents-repository.js";
import { paymentFacts } from "../refunds/refundable-payments.js";
import { createAlongRoute, routeNewPayment, type PaymentRoute, type ProviderAttempt, type RouteStop } from "../routing/failover.js";
import type { PaymentRouting } from "../routing/payment-routing.js";
import type { CreatePins } from "../routing/create-pins.js";

export interface PaymentIntentsDeps {
  store: Store;
  repository: PaymentIntentsRepository;
  outbox: Outbox;
  providers: PaymentProviders;
  logger: Logger;
  /** The clock that dates changes and decides expiry; tests move it instead of waiting. */
  now: () => Date;
  keys: IdempotencyKeys;
  /**
   * How long a confirmation may wait for the provider before another request may presume its
   * process died and take it over (PAYMENTS_PROVIDER_LEASE_MS).
   */
  providerLeaseMs: number;
  /** Spreads new intents over the project's provider accounts; without it, chooseProvider's one account. */
  routing?: PaymentRouting;
  /** Where a create without an answer was being asked, per key (with routing). */
  pins?: CreatePins;
}

export type MutatingCaller = CallerContext & { idempotencyKey: string };

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
export function paymentIntentMover(deps: PaymentIntentsDeps) {
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

/**
 * Writes the intent `make` builds with its first event, claiming the Idempotency-Key in the same
 * transaction, or returns the one the key created within its window (also when a concurrent
 * request with the key won the race).
 */
export function insertOnce(deps: PaymentIntentsDeps, caller: MutatingCaller, operation: string, make: () => Promise<PaymentIntentRecord>) {
  return createOnce(deps.keys, caller, operation, {
    existing: (paymentIntentId) => deps.repository.findById(caller, paymentIntentId),
    create: async (claim) => {
      const record = await make();
      return createResource(paymentIntentMover(deps), record, { also: (_created, session) => claim(session, record._id) });
    },
  });
}

export function newRecord(
  deps: PaymentIntentsDeps,
  caller: MutatingCaller,
  input: CreatePaymentIntentInput,
  providerAccountId: string | undefined,
  paymentIntentId = newId("pi"),
): Omit<PaymentIntentRecord, "status" | "paymentMethod"> {
  const now = deps.now();
  return {
    _id: paymentIntentId,
    projectId: caller.projectId,
    environment: caller.environment,
    referenceId: input.referenceId,
    amountMinor: input.amountMinor,
    currency: CURRENCY,
    idempotencyKey: caller.idempotencyKey,
    ...(providerAccountId === undefined ? {} : { providerAccountId }),
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Makes the intent `paymentIntentId` at the accounts of `route` in turn (createAlongRoute): the
 * account that made it and the ones that made nothing before it, as the record keeps them.
 */
export async function createAtRoute<T>(
  deps: PaymentIntentsDeps,
  caller: MutatingCaller,
  operation: string,
  route: PaymentRoute,
  create: (provider: RouteStop["provider"]) => Promise<T>,
): Promise<{ made: T; taken: Pick<PaymentIntentRecord, "providerAccountId" | "provider" | "providerAttempts"> }> {
  const { result, stop, attempts } = await createAlongRoute(route, {
    pins: deps.pins,
    caller,
    operation,
    accountOf: async (providerAccountId) => deps.providers.accounts?.forAccount(providerAccountId),
    create,
    now: deps.now,
  });
  const attemptsTaken: { providerAttempts?: ProviderAttempt[] } = attempts.length > 0 ? { providerAttempts: attempts } : {};
  return {
    made: result,
    taken: stop.providerAccountId === undefined ? {} : { providerAccountId: stop.providerAccountId, provider: stop.providerName, ...attemptsTaken },
  };
}

/** Creates a card payment intent, `requires_action` until confirmed. A repeated key returns it again. */
export async function createPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, input: CreatePaymentIntentInput) {
  const { providerAccountId } = await chooseProvider(deps.providers, caller);
  // A card never passes through Bayad, so a card intent cannot be confirmed at a provider account:
  // PayMongo's own page collects the card (a checkout). Refused before anything is written.
  if (providerAccountId !== undefined) {
    throw new AppError("PROVIDER_REJECTED", "Card payment intents cannot be made at this project's provider account; take card payments through a checkout.", {
      details: ["body: card payment intents are served by the sandbox only; create a checkout instead"],
    });
  }
  return insertOnce(deps, caller, "createPaymentIntent", async () => ({
    ...newRecord(deps, caller, input, providerAccountId),
    status: "requires_action",
    paymentMethod: "card",
  }));
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
  const expirySeconds = input.expirySeconds || qrPhExpirySeconds.default;
  const problems = qrPhProblems(input, expirySeconds);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  const paymentIntentId = newId("pi");
  const amount = { amountMinor: input.amountMinor, currency: CURRENCY } as const;
  const route = await routeNewPayment(deps.providers, deps.routing, caller, { routingKey: paymentIntentId, flow: "payment_intent", method: "qrph", amount });

  return insertOnce(deps, caller, "createQrPhPaymentIntent", async () => {
    const base = newRecord(deps, caller, input, undefined, paymentIntentId);
    const { made: code, taken } = await createAtRoute(deps, caller, "createQrPhPaymentIntent", route, (provider) =>
      provider.createQrPh(
        {
          paymentIntentId: base._id,
          referenceId: input.referenceId,
          amount: { amountMinor: input.amountMinor, currency: CURRENCY },
          description: input.description,
          expirySeconds,
        },
        { environment: caller.environment, idempotencyKey: caller.idempotencyKey },
      ),
    );
    // A provider that hands back the image itself (PayMongo: a base64 PNG) has it served by the
    // gateway at a URL of Bayad's, reached with its own page token, like the sandbox's.
    const image =
      code.imagePngBase64 === undefined
        ? { qrCodeImageUrl: code.imageUrl, pageToken: code.pageToken }
        : (() => {
            const pageToken = randomBase62(32);
            return { qrImagePng: code.imagePngBase64, pageToken, qrCodeImageUrl: `/qrph/${base._id}.png?token=${pageToken}` };
          })();
    return {
      ...base,
      ...taken,
      status: "awaiting_next_action",
      paymentMethod: "qrph",
      ...(input.description ? { description: input.description } : {}),
      providerReference: code.providerReference,
      qrPayload: code.payload,
      ...image,
      expirySeconds,
      expiresAt: new Date(base.createdAt.getTime() + expirySeconds * 1000),
    };
  });
}

export async function getPaymentIntent(deps: PaymentIntentsDeps, caller: CallerContext, paymentIntentId: string) {
  const record = await deps.repository.findById(caller, paymentIntentId);
  if (!record) throw notFound("payment intent", paymentIntentId);
  return record;
}

/** A confirmation claimed by a request that may still be asking the provider. */
function confirmationUnderWay(deps: PaymentIntentsDeps, record: PaymentIntentRecord): boolean {
  return record.confirmation !== undefined && record.confirmation.claimedAt.getTime() > deps.now().getTime() - deps.providerLeaseMs;
}

function beingConfirmed(record: PaymentIntentRecord): AppError {
  return new AppError("INVALID_STATE_TRANSITION", `Payment intent ${record._id} is being confirmed by another request.`);
}

/**
 * Claims the confirmation of `record` for this request, before the provider is asked: a
 * conditional write on the version and status read, so of racing confirms exactly one proceeds
 * (the others answer 409, or IDEMPOTENCY_KEY_IN_PROGRESS to a retry of the one under way). A claim
 * older than the lease is taken over, keeping its provider key, so the provider sees one
 * confirmation however many requests it took.
 */
async function claimConfirmation(deps: PaymentIntentsDeps, caller: MutatingCaller, record: PaymentIntentRecord): Promise<PaymentIntentRecord> {
  for (let current = record; ; ) {
    paymentIntentStates.next(current.status, "confirm");
    const held = current.confirmation;
    if (held && confirmationUnderWay(deps, current)) {
      if (held.providerKey === caller.idempotencyKey) throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
      throw beingConfirmed(current);
    }
    const confirmation = { providerKey: held?.providerKey ?? caller.idempotencyKey, claimedAt: deps.now() };
    const claimed = await deps.repository.collection.findOneAndUpdate(
      {
        _id: current._id,
        aggregateVersion: current.aggregateVersion,
        status: current.status,
        ...(held ? { "confirmation.claimedAt": held.claimedAt } : { confirmation: { $exists: false } }),
      },
      { $set: { confirmation } },
    );
    if (claimed) return claimed;
    current = await getPaymentIntent(deps, caller, current._id);
  }
}

/**
 * Hands a `requires_action` card intent to the provider: `processing` when it accepts, `failed`
 * when it declines. The confirmation is claimed (see claimConfirmation) before the provider is
 * asked, so an illegal or concurrent confirm never reaches it. A retry with the same key answers
 * as the first confirm did.
 */
export async function confirmPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, paymentIntentId: string) {
  return actOnce<PaymentIntentRecord>(deps.keys, caller, "confirmPaymentIntent", paymentIntentId, async (claim) => {
    const record = await getPaymentIntent(deps, caller, paymentIntentId);
    if (record.paymentMethod !== "card") {
      throw new AppError("INVALID_STATE_TRANSITION", `Payment intent ${record._id} is paid by the payer (${record.paymentMethod}), not confirmed through the API.`);
    }
    const provider = await providerOfResource(deps.providers, record);
    const claimed = await claimConfirmation(deps, caller, record);
    const confirmation = await askProvider(() =>
      provider.confirmPaymentIntent(
        { paymentIntentId: claimed._id, referenceId: claimed.referenceId, amount: { amountMinor: claimed.amountMinor, currency: claimed.currency } },
        { environment: claimed.environment, idempotencyKey: claimed.confirmation!.providerKey },
      ),
    );
    const action = confirmation.outcome === "declined" ? "decline" : "confirm";
    return moveResource(paymentIntentMover(deps), claimed, action, {
      extra: { providerReference: confirmation.providerReference },
      also: (next, session) => claim(session, next),
    });
  });
}

/** Cancels an intent not yet handed to the provider; a retry with the same key answers as the first cancel did. */
export async function cancelPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, paymentIntentId: string) {
  return actOnce<PaymentIntentRecord>(deps.keys, caller, "cancelPaymentIntent", paymentIntentId, async (claim) => {
    const record = await getPaymentIntent(deps, caller, paymentIntentId);
    if (confirmationUnderWay(deps, record)) throw beingConfirmed(record);
    return moveResource(paymentIntentMover(deps), record, "cancel", {
      also: async (next, session) => {
        // A confirmation claimed after the read above, in the same transaction as the cancel.
        const stored = await deps.repository.collection.findOne({ _id: next._id }, { session });
        if (stored && confirmationUnderWay(deps, stored)) throw beingConfirmed(stored);
        await claim(session, next);
      },
    });
  });
}

const isDue = (record: PaymentIntentRecord, now: Date) =>
  record.status === "awaiting_next_action" && record.expiresAt !== undefined && record.expiresAt <= now;

/** Test helpers: the provider reports the payment; the sandbox declines its decline scenario. */
export async function simulatePaymentIntentOutcome(deps: PaymentIntentsDeps, caller: MutatingCaller, paymentIntentId: string, action: PayerAction) {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<PaymentIntentRecord>(deps.keys, caller, `${action}PaymentIntent`, paymentIntentId, async (claim) => {
    let record = await getPaymentIntent(deps, caller, paymentIntentId);
    // A code past its expiry cannot be paid, whether or not the sweep has reached it yet.
    if (isDue(record, deps.now())) record = await move(deps, record, "expire");
    return settleByPayer(deps, record, action, (next, session) => claim(session, next));
  });
}

/**
 * The payer acted (the sandbox's page, or a test helper standing in for them) and the provider
 * decides: paid → `succeeded` with all of it refundable, else `failed`. A payer who pays on a
 * redirect intent's page hands it to the wallet or bank first (`processing`), as PayMongo's
 * intent does; `also` joins the final move's transaction.
 */
export async function settleByPayer(
  deps: PaymentIntentsDeps,
  record: PaymentIntentRecord,
  action: PayerAction,
  also?: (next: PaymentIntentRecord, session: Session) => Promise<void>,
): Promise<PaymentIntentRecord> {
  const amount = { amountMinor: record.amountMinor, currency: record.currency };
  const provider = await providerOfResource(deps.providers, record);
  const decided = provider.decidePayment(amount, {}, action);
  const { feeMinor } = payerPaymentFacts(provider, amount, record.paymentMethod);
  const current = action === "pay" && paidByRedirect(record) && record.status === "awaiting_next_action" ? await move(deps, record, "process") : record;
  const options = also ? { also } : {};
  return decided === "paid"
    ? moveResource(paymentIntentMover(deps), current, "succeed", { extra: { refundableMinor: current.amountMinor, ...(feeMinor === undefined ? {} : { feeMinor }) }, ...options })
    : moveResource(paymentIntentMover(deps), current, "fail", options);
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
  if (!record || !pageTokenMatches(record.pageToken, pageToken)) throw new AppError("RESOURCE_NOT_FOUND", "No such QR code.");
  // The provider's own image (PayMongo's), as it handed it back.
  if (record.qrImagePng !== undefined) return { png: Buffer.from(record.qrImagePng, "base64"), payload: record.qrPayload ?? "" };
  if (!record.qrPayload || record.environment !== "test") throw new AppError("RESOURCE_NOT_FOUND", "No such QR code.");
  return { png: await renderQrPng(record.qrPayload), payload: record.qrPayload };
}

/** What a provider reported of a payment intent (its webhook, or the reconciler reading the intent). */
export type ProviderPaymentIntentOutcome =
  | { status: "succeeded"; providerPaymentId: string; method?: string; paidAt?: Date; fee?: number }
  | { status: "processing" | "failed" | "expired" };

/**
 * Applies what provider account `providerAccountId` reported of its intent `providerReference`.
 * Idempotent and order-tolerant as applyProviderCheckoutOutcome: an intent already there is left
 * as it is; one that cannot move yet throws INVALID_STATE_TRANSITION and is tried again later; a
 * report about an intent of another account, or unknown here, is ignored (undefined).
 */
export async function applyProviderPaymentIntentOutcome(
  deps: PaymentIntentsDeps,
  providerAccountId: string,
  providerReference: string,
  outcome: ProviderPaymentIntentOutcome,
): Promise<PaymentIntentRecord | undefined> {
  const record = await deps.repository.findByProviderReference(providerReference);
  if (!record || record.providerAccountId !== providerAccountId) return undefined;
  if (record.status === outcome.status) return record;
  if (outcome.status === "succeeded") {
    return move(deps, record, "succeed", { refundableMinor: record.amountMinor, providerPaymentId: outcome.providerPaymentId, ...paymentFacts(outcome) });
  }
  if (outcome.status === "expired") return record.status === "awaiting_next_action" ? move(deps, record, "expire") : record;
  // The payer paid on the wallet's or bank's page and the provider is settling it (PayMongo's PI `processing`).
  if (outcome.status === "processing") return record.status === "awaiting_next_action" ? move(deps, record, "process") : record;
  return record.status === "processing" || record.status === "awaiting_next_action" ? move(deps, record, "fail") : record;
}

import { AppError, CURRENCY, newId, notFound, type CallerContext, type Logger } from "@bayad/kit";
import { createResource, moveResource, type Outbox } from "@bayad/events";
import { actOnce, createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import { type CheckoutSession, type CheckoutSessionRequest, type PayerAction, type PaymentMethodName, type ProviderCallContext } from "@bayad/provider";
import type { Session, Store } from "@bayad/store";
import { fromStoredMetadata, toStoredMetadata } from "@bayad/kit";
import { askProvider, ProviderNoAnswerError, providerOfResource, type PaymentProviders } from "@bayad/provider";
import { hostedPageResource, payerPaymentFacts } from "@bayad/provider";
import { checkoutStates, checkoutToProto, type CheckoutRecord } from "./checkout.js";
import type { CheckoutsRepository } from "./checkouts-repository.js";
import { paymentFacts } from "../refunds/refundable-payments.js";
import { attemptOf, mayFailOver, routeNewPayment, type PaymentRoute, type RouteStop } from "../routing/failover.js";
import type { PaymentRouting } from "../routing/payment-routing.js";

export interface CheckoutsDeps {
  store: Store;
  repository: CheckoutsRepository;
  outbox: Outbox;
  providers: PaymentProviders;
  /** How long createCheckout waits for the provider before answering 202. */
  providerTimeoutMs: number;
  logger: Logger;
  keys: IdempotencyKeys;
  /** Spreads new checkouts over the project's provider accounts; without it, chooseProvider's one account. */
  routing?: PaymentRouting;
}

export interface CreateCheckoutInput {
  referenceId: string;
  amountMinor: number;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
}

export interface CreatedCheckout {
  checkout: CheckoutRecord;
  /** The provider has not answered yet: the checkout becomes pending by itself when it does. */
  providerPending: boolean;
}

type Action = Parameters<typeof checkoutStates.next>[1];

/** How checkouts are written: their collection, state table and events. */
function checkoutMover(deps: CheckoutsDeps) {
  return {
    store: deps.store,
    collection: deps.repository.collection,
    outbox: deps.outbox,
    states: checkoutStates,
    resource: "checkout",
    snapshot: (next: CheckoutRecord) => ({ case: "checkout" as const, value: checkoutToProto(next) }),
  };
}

function move(deps: CheckoutsDeps, record: CheckoutRecord, action: Action, extra: Partial<CheckoutRecord> = {}) {
  return moveResource(checkoutMover(deps), record, action, { extra });
}

function sessionRequest(record: CheckoutRecord): CheckoutSessionRequest {
  return {
    checkoutId: record._id,
    referenceId: record.referenceId,
    amount: { amountMinor: record.amountMinor, currency: record.currency },
    successUrl: record.successUrl,
    cancelUrl: record.cancelUrl,
    metadata: fromStoredMetadata(record.metadata),
  };
}

/** Records the provider's session, unless another path (a late answer, reconciliation) already did. */
async function openWith(deps: CheckoutsDeps, record: CheckoutRecord, session: CheckoutSession): Promise<CheckoutRecord> {
  const current = (await deps.repository.findByIdForPage(record._id)) ?? record;
  if (current.status !== "created") return current;
  return move(deps, current, "open", {
    checkoutUrl: session.checkoutUrl,
    pageToken: session.pageToken,
    providerReference: session.providerReference,
  });
}

/**
 * The provider answered the session with a refusal (PROVIDER_REJECTED): it made none and would
 * refuse the same request again, so the checkout fails now, announced, instead of staying
 * `created` for every retry and stale sweep to ask about again (and to open, should the provider
 * take it later, a checkout whose refusal the merchant was answered). Rethrows `error`.
 */
async function failIfRefused(deps: CheckoutsDeps, record: CheckoutRecord, error: unknown): Promise<never> {
  if (error instanceof AppError && error.code === "PROVIDER_REJECTED") {
    const current = (await deps.repository.findByIdForPage(record._id)) ?? record;
    if (current.status === "created") {
      await move(deps, current, "refuse").catch((moveError: unknown) =>
        deps.logger.warn({ err: moveError, checkoutId: record._id }, "refused checkout not failed"),
      );
    }
  }
  throw error;
}

/**
 * Moves a checkout still `created` from the account that made nothing of it to the next one, with
 * the attempt recorded: a guarded write, so a concurrent reconciliation of it (a retry with the
 * key) and this failover never both move it. Rethrows `error` when it moved meanwhile.
 */
async function moveToNextAccount(deps: CheckoutsDeps, record: CheckoutRecord, from: RouteStop, to: RouteStop, error: unknown): Promise<CheckoutRecord> {
  const now = new Date();
  const moved = await deps.repository.collection.findOneAndUpdate(
    { _id: record._id, status: "created", providerAccountId: from.providerAccountId },
    {
      $set: {
        providerAccountId: to.providerAccountId,
        provider: to.providerName,
        providerAttempts: [...(record.providerAttempts ?? []), attemptOf(from, error, now)],
        updatedAt: now,
      },
    },
  );
  if (!moved) throw error;
  return moved;
}

/**
 * Creates a checkout and asks the provider for its payment page. The checkout is written first
 * (status created), so whatever the provider does next is tied to one checkout: an answer in
 * time → 201 pending; a late answer → 202 now and pending by itself later; no answer → 409
 * PAYMENT_OUTCOME_UNKNOWN until reconciliation asks the provider what happened; a refusal → the
 * checkout failed and the provider's refusal answered. A retry with the
 * same Idempotency-Key finds the same checkout and, if it is still created, reconciles it.
 *
 * With several provider accounts, routing orders them (routing/route-payment.ts): the checkout is
 * written with the first, and when that one made nothing (PROVIDER_UNAVAILABLE: unreachable, a
 * 503, its circuit open) the checkout moves to the next (providerAttempts) and the next is asked,
 * within this request and with the same key. Never after no answer: the first create may have
 * happened, so the same account is reconciled (PayMongo answers the session its first call made)
 * and, still unknown, 409 PAYMENT_OUTCOME_UNKNOWN. A retry continues at the checkout's account.
 */
export async function createCheckout(
  deps: CheckoutsDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreateCheckoutInput,
): Promise<CreatedCheckout> {
  const checkoutId = newId("chk");
  const amount = { amountMinor: input.amountMinor, currency: CURRENCY } as const;
  const route = await routeNewPayment(deps.providers, deps.routing, caller, { routingKey: checkoutId, flow: "checkout", method: "checkout", amount });
  const [firstStop] = route.candidates;
  // The checkout is written before the provider is asked: an amount it would refuse is refused first.
  firstStop.provider.checkAmount?.({ flow: "checkout", amount });
  const written = await createOnce(deps.keys, caller, "createCheckout", {
    existing: async (checkoutId) => {
      const existing = await deps.repository.findById(caller, checkoutId);
      return existing && { record: existing, created: false };
    },
    create: async (claim) => {
      const now = new Date();
      const record: CheckoutRecord = {
        _id: checkoutId,
        projectId: caller.projectId,
        environment: caller.environment,
        referenceId: input.referenceId,
        status: "created",
        amountMinor: input.amountMinor,
        currency: CURRENCY,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        metadata: toStoredMetadata(input.metadata),
        idempotencyKey: caller.idempotencyKey,
        ...(firstStop.providerAccountId === undefined ? {} : { providerAccountId: firstStop.providerAccountId, provider: firstStop.providerName }),
        aggregateVersion: 1,
        createdAt: now,
        updatedAt: now,
      };
      try {
        // Not waiting for the disk: the write that opens it (or fails it) next is flushed and
        // takes this one with it, and a 202 flushes it before answering (below). An operating-
        // system crash before then loses the checkout with its key claim before anything was
        // answered or announced about it (the outbox relay publishes only flushed events): a
        // retry makes a new checkout, and a provider session made for the lost one (keyed by its
        // id) was never shown to a payer.
        await createResource(checkoutMover(deps), record, { durability: "deferred", also: (_created, session) => claim(session, record._id) });
        return { record, created: true };
      } catch (error) {
        if (deps.repository.conflictOf(error) === "reference") {
          throw new AppError("RESOURCE_ALREADY_EXISTS", "A checkout with this referenceId already exists.", {
            details: ["referenceId: a checkout with this reference already exists"],
          });
        }
        throw error;
      }
    },
  });
  if (!written.created) {
    const { record } = written;
    if (record.status !== "created") return { checkout: record, providerPending: false };
    return { checkout: await reconcileCheckout(deps, record), providerPending: false };
  }

  const context = { environment: caller.environment, idempotencyKey: caller.idempotencyKey };
  const { record } = written;
  const opened = askAlongRoute(deps, route, record, context);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), deps.providerTimeoutMs);
  });
  const first = await Promise.race([opened, late]).finally(() => clearTimeout(timer));
  if (first !== "late") return { checkout: first, providerPending: false };
  // Answer 202 now and finish when the route does (failing over meanwhile if it must); the stale
  // sweep covers a crash meanwhile.
  opened.catch((error: unknown) => deps.logger.warn({ err: error, checkoutId: record._id }, "late provider answer not applied"));
  // The checkout is answered as created: it must outlive an operating-system crash from now on.
  await deps.store.flush();
  return { checkout: record, providerPending: true };
}

/**
 * Asks the route's accounts in turn for the checkout's session and opens the checkout with the
 * first that makes one. An account that made nothing hands the checkout to the next; one that
 * gave no answer is reconciled (asked again with the same key), never passed over; a refusal
 * fails the checkout.
 */
async function askAlongRoute(deps: CheckoutsDeps, route: PaymentRoute, start: CheckoutRecord, context: ProviderCallContext): Promise<CheckoutRecord> {
  let record = start;
  for (let index = 0; ; index++) {
    const stop = route.candidates[index];
    try {
      const session = await route.ask(stop, () => stop.provider.createCheckoutSession(sessionRequest(record), context));
      return await openWith(deps, record, session);
    } catch (error) {
      const next = route.candidates[index + 1];
      if (next !== undefined && mayFailOver(error)) {
        record = await moveToNextAccount(deps, record, stop, next, error);
        route.failedOver(stop, next);
        deps.logger.warn({ err: error, checkoutId: record._id, from: stop.providerAccountId, to: next.providerAccountId }, "checkout failed over to the next provider account");
        continue;
      }
      // No answer: the session may exist at this account. Ask it again (the same key), never another.
      if (error instanceof ProviderNoAnswerError) return reconcileCheckout(deps, record);
      return failIfRefused(deps, record, error);
    }
  }
}

/** Asks the provider whether a checkout still `created` got its session, and records it. */
export async function reconcileCheckout(deps: CheckoutsDeps, record: CheckoutRecord): Promise<CheckoutRecord> {
  const context = { environment: record.environment, idempotencyKey: record.idempotencyKey };
  const provider = await providerOfResource(deps.providers, record);
  const session = await askProvider(
    async () =>
      (await provider.retrieveCheckoutSession(sessionRequest(record), context)) ??
      (await provider.createCheckoutSession(sessionRequest(record), context)),
  ).catch((error: unknown) => failIfRefused(deps, record, error));
  return openWith(deps, record, session);
}

/** Reconciles checkouts the provider has left without an answer for longer than `olderThanMs`. */
export async function reconcileStaleCheckouts(deps: CheckoutsDeps, olderThanMs: number, limit = 50): Promise<number> {
  const stale = await deps.repository.findStale("created", new Date(Date.now() - olderThanMs), limit);
  let reconciled = 0;
  for (const record of stale) {
    try {
      await reconcileCheckout(deps, record);
      reconciled += 1;
    } catch (error) {
      deps.logger.info({ checkoutId: record._id, err: error }, "checkout still unreconciled");
    }
  }
  return reconciled;
}

export async function getCheckout(deps: CheckoutsDeps, caller: CallerContext, checkoutId: string): Promise<CheckoutRecord> {
  const record = await deps.repository.findById(caller, checkoutId);
  if (!record) throw notFound("checkout", checkoutId);
  return record;
}

export async function getCheckoutByReference(deps: CheckoutsDeps, caller: CallerContext, referenceId: string) {
  const record = await deps.repository.findByReference(caller, referenceId);
  if (!record) throw new AppError("RESOURCE_NOT_FOUND", `No checkout with referenceId ${referenceId}.`);
  return record;
}

/** Cancels an unpaid checkout; a retry with the same key answers as the first cancel did. */
export async function cancelCheckout(deps: CheckoutsDeps, caller: CallerContext & { idempotencyKey: string }, checkoutId: string) {
  return actOnce<CheckoutRecord>(deps.keys, caller, "cancelCheckout", checkoutId, async (claim) =>
    moveResource(checkoutMover(deps), await getCheckout(deps, caller, checkoutId), "cancel", { also: (next, session) => claim(session, next) }),
  );
}

type Claim = (session: Session, result: CheckoutRecord) => Promise<void>;

/** What the payer did, decided by the provider (the sandbox declines its decline scenario). */
async function applyPayerAction(deps: CheckoutsDeps, record: CheckoutRecord, action: PayerAction, claim?: Claim) {
  const amount = { amountMinor: record.amountMinor, currency: record.currency };
  const provider = await providerOfResource(deps.providers, record);
  const decided = provider.decidePayment(amount, fromStoredMetadata(record.metadata), action);
  const also = claim && ((next: CheckoutRecord, session: Session) => claim(session, next));
  return decided === "paid"
    ? moveResource(checkoutMover(deps), record, "pay", { extra: { refundableMinor: record.amountMinor, ...payerPaymentFacts(provider, amount) }, also })
    : moveResource(checkoutMover(deps), record, "fail", { also });
}

/** Test helpers: drive a test-mode checkout as the payer and the provider would; a retry with the key answers the same. */
export async function simulateCheckoutOutcome(
  deps: CheckoutsDeps,
  caller: CallerContext & { idempotencyKey: string },
  checkoutId: string,
  outcome: "pay" | "fail" | "expire",
) {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<CheckoutRecord>(deps.keys, caller, `${outcome}Checkout`, checkoutId, async (claim) => {
    const record = await getCheckout(deps, caller, checkoutId);
    if (outcome !== "expire") return applyPayerAction(deps, record, outcome, claim);
    return moveResource(checkoutMover(deps), record, "expire", { also: (next, session) => claim(session, next) });
  });
}

/** The sandbox's hosted payment page: what it shows. */
export async function getHostedCheckout(deps: CheckoutsDeps, checkoutId: string, pageToken: string): Promise<CheckoutRecord> {
  return hostedPageResource(await deps.repository.findByIdForPage(checkoutId), pageToken);
}

/** The sandbox's hosted payment page: the payer pays or gives up. */
export async function submitHostedCheckout(deps: CheckoutsDeps, checkoutId: string, pageToken: string, action: PayerAction) {
  return applyPayerAction(deps, await getHostedCheckout(deps, checkoutId, pageToken), action);
}

/** What a provider reported of a checkout (its webhook, or the reconciler reading the session). */
export type ProviderCheckoutOutcome =
  | { status: "paid"; providerPaymentId: string; method?: string; paymentMethod?: PaymentMethodName; paidAt?: Date; fee?: number }
  | { status: "failed" | "expired" };

/**
 * Applies what the provider account `providerAccountId` reported of checkout `checkoutId`.
 * Idempotent (a checkout already there is answered as it is) and order-tolerant: a report that
 * cannot apply yet (the session's own answer not recorded, so still `created`) throws
 * INVALID_STATE_TRANSITION and is applied again later. A report from another account than the
 * checkout's is ignored (undefined), as is one about a checkout this service does not have.
 */
export async function applyProviderCheckoutOutcome(
  deps: CheckoutsDeps,
  providerAccountId: string,
  checkoutId: string,
  outcome: ProviderCheckoutOutcome,
): Promise<CheckoutRecord | undefined> {
  const record = await deps.repository.findByIdForPage(checkoutId);
  if (!record || record.providerAccountId !== providerAccountId) return undefined;
  if (record.status === outcome.status) return record;
  if (outcome.status === "paid") {
    return moveResource(checkoutMover(deps), record, "pay", {
      extra: {
        refundableMinor: record.amountMinor,
        providerPaymentId: outcome.providerPaymentId,
        ...paymentFacts(outcome),
        ...(outcome.paymentMethod === undefined ? {} : { paymentMethod: outcome.paymentMethod }),
      },
    });
  }
  if (record.status !== "pending") return record;
  return moveResource(checkoutMover(deps), record, outcome.status === "failed" ? "fail" : "expire");
}

import { AppError, CURRENCY, newId, notFound, type CallerContext, type Logger } from "@bayad/kit";
import { createResource, moveResource, type Outbox } from "@bayad/events";
import { actOnce, createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import { ProviderRefusedRefundError, providerOfResource, type PaymentProvider, type PaymentProviders } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { refundStates, refundToProto, type RefundRecord } from "./refund.js";
import type { RefundsRepository } from "./refunds-repository.js";
import {
  findRefundablePayment,
  providerSideOf,
  releaseRefund,
  reserveRefund,
  type RefundableCollections,
  type RefundablePayment,
  type Reservation,
} from "./refundable-payments.js";

export interface RefundsDeps {
  store: Store;
  repository: RefundsRepository;
  outbox: Outbox;
  /** The payments refunds draw on: paid checkouts, succeeded payment intents, paid links and invoices. */
  payments: RefundableCollections;
  providers: PaymentProviders;
  logger: Logger;
  keys: IdempotencyKeys;
}

export interface CreateRefundInput {
  paymentId: string;
  amountMinor: number;
  reason: string;
}

/** How refunds are written: their collection, state table and events. */
function refundMover(deps: RefundsDeps) {
  return {
    store: deps.store,
    collection: deps.repository.collection,
    outbox: deps.outbox,
    states: refundStates,
    resource: "refund",
    snapshot: (next: RefundRecord) => ({ case: "refund" as const, value: refundToProto(next) }),
  };
}

function refusal(reservation: Exclude<Reservation, { reserved: true }>, paymentId: string): AppError {
  switch (reservation.reason) {
    case "not_found":
      return notFound("payment", paymentId);
    case "not_paid":
      return new AppError("INVALID_STATE_TRANSITION", `Payment ${paymentId} is not paid, so it cannot be refunded.`);
    case "exceeds":
      return new AppError("REFUND_EXCEEDS_REFUNDABLE", undefined, {
        details: [`amount.amountMinor: exceeds the ${reservation.refundableMinor ?? 0} centavos left to refund`],
      });
  }
}

/**
 * Refunds (part of) a paid payment. The amount is taken from the payment's refundable balance in
 * the same transaction that records the refund, so concurrent refunds can never together exceed
 * what was paid; a failed refund gives its amount back.
 */
export async function createRefund(
  deps: RefundsDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreateRefundInput,
): Promise<RefundRecord> {
  const written = await createOnce(deps.keys, caller, "createRefund", {
    existing: async (refundId) => {
      const existing = await deps.repository.findById(caller, refundId);
      return existing && { record: existing, created: false };
    },
    create: async (claim) => {
      // The refund goes to the provider the payment was made with (PROVIDER_NOT_CONFIGURED before anything is written).
      const payment = await findRefundablePayment(deps.payments, caller, input.paymentId);
      // Unknown here (another project's, or a link or invoice whose payment has not arrived yet): 404, not its provider's error.
      if (!payment) throw notFound("payment", input.paymentId);
      const side = providerSideOf(payment);
      const provider = await providerOfResource(deps.providers, { environment: caller.environment, ...side });
      // The provider's published rules, before anything is written (an unpaid or unknown payment is the reservation's to refuse).
      if (payment.paid && provider.refundRefusal) {
        const refused = provider.refundRefusal(await refundedPayment(deps, payment), input.amountMinor, new Date());
        if (refused) throw refused;
      }
      const now = new Date();
      const record: RefundRecord = {
        _id: newId("ref"),
        projectId: caller.projectId,
        environment: caller.environment,
        paymentId: input.paymentId,
        status: "pending",
        amountMinor: input.amountMinor,
        currency: CURRENCY,
        reason: input.reason,
        ...side,
        // Copied now, so the refund says where and how the money went back whatever the payment becomes.
        provider: provider.name,
        ...(payment.paymentMethod === undefined ? {} : { paymentMethod: payment.paymentMethod }),
        idempotencyKey: caller.idempotencyKey,
        aggregateVersion: 1,
        createdAt: now,
        updatedAt: now,
      };
      await createResource(refundMover(deps), record, {
        // Taken in the refund's own transaction: a refusal writes nothing.
        also: async (_refund, session) => {
          const reservation = await reserveRefund(deps.payments, caller, input.paymentId, input.amountMinor, session);
          if (!reservation.reserved) throw refusal(reservation, input.paymentId);
          await claim(session, record._id);
        },
      });
      return { record, created: true };
    },
  });
  if (!written.created) return written.record;
  const { record } = written;
  const provider = await providerOfResource(deps.providers, record);

  try {
    return await askProviderToRefund(deps, provider, record);
  } catch (error) {
    if (error instanceof ProviderRefusedRefundError) {
      await failRefusedRefund(deps, record);
      throw error;
    }
    // No answer, or the provider unavailable: the refund stays pending without a provider reference, and the sweep asks again (same key).
    deps.logger.warn({ err: error, refundId: record._id }, "refund not acknowledged by the provider yet");
    return record;
  }
}

/** What the provider's refund rules look at of `payment` (a paid one). */
async function refundedPayment(deps: RefundsDeps, payment: RefundablePayment) {
  return {
    paymentId: payment._id,
    amountMinor: payment.amountMinor,
    refundableMinor: payment.refundableMinor ?? 0,
    ...providerSideOf(payment),
    ...(payment.paymentMethodUsed === undefined ? {} : { method: payment.paymentMethodUsed }),
    ...(payment.paidAt === undefined ? {} : { paidAt: payment.paidAt }),
    openRefunds: await deps.repository.countPending(payment._id),
  };
}

/**
 * The provider refused the refund, so it made none and never will: the refund, committed pending
 * before the call (so a crash in between is re-driven), fails now and gives its amount back to the
 * payment in the same transaction, leaving nothing pending that no report would ever settle. It is
 * kept (failed) rather than removed, since its `refund.created` event has announced it already.
 */
async function failRefusedRefund(deps: RefundsDeps, record: RefundRecord): Promise<RefundRecord> {
  return moveResource(refundMover(deps), record, "fail", {
    also: async (next, session) => {
      await releaseRefund(deps.payments, next.paymentId, next.amountMinor, session);
    },
  });
}

/**
 * Asks the provider for the refund, keyed by the Idempotency-Key of the request that created it
 * (so asking twice refunds once), and records the provider's reference.
 */
async function askProviderToRefund(deps: RefundsDeps, provider: PaymentProvider, record: RefundRecord): Promise<RefundRecord> {
  const { providerReference } = await provider.createRefund(
    {
      refundId: record._id,
      paymentId: record.paymentId,
      ...(record.providerPaymentId === undefined ? {} : { providerPaymentId: record.providerPaymentId }),
      amount: { amountMinor: record.amountMinor, currency: CURRENCY },
      reason: record.reason,
    },
    { environment: record.environment, idempotencyKey: record.idempotencyKey },
  );
  await deps.repository.recordProviderReference(record._id, providerReference);
  return { ...record, providerReference };
}

/**
 * The refund is committed (pending) before the provider is asked, so a process that dies in
 * between, or a provider call that fails, leaves a pending refund the provider never saw. This
 * asks again for every pending refund older than `olderThanMs` (longer than any request could
 * still be asking) that has no provider reference, and fails those the provider refuses; returns
 * how many the provider acknowledged.
 */
export async function redriveUnacknowledgedRefunds(deps: RefundsDeps, olderThanMs: number, limit = 50): Promise<number> {
  const stuck = await deps.repository.findUnacknowledged(new Date(Date.now() - olderThanMs), limit);
  let acknowledged = 0;
  for (const record of stuck) {
    try {
      await askProviderToRefund(deps, await providerOfResource(deps.providers, record), record);
      acknowledged += 1;
    } catch (error) {
      if (error instanceof ProviderRefusedRefundError) {
        await failRefusedRefund(deps, record);
        deps.logger.info({ refundId: record._id, code: error.code, details: error.details }, "refund refused by the provider on a re-drive; failed");
        continue;
      }
      deps.logger.warn({ err: error, refundId: record._id }, "refund still not acknowledged by the provider");
    }
  }
  return acknowledged;
}

export async function getRefund(deps: RefundsDeps, caller: CallerContext, refundId: string): Promise<RefundRecord> {
  const record = await deps.repository.findById(caller, refundId);
  if (!record) throw notFound("refund", refundId);
  return record;
}

/** Test helpers: the provider reports the refund succeeded or failed; a retry with the key answers the same. */
export async function simulateRefundOutcome(
  deps: RefundsDeps,
  caller: CallerContext & { idempotencyKey: string },
  refundId: string,
  action: "succeed" | "fail",
) {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<RefundRecord>(deps.keys, caller, `${action}Refund`, refundId, async (claim) =>
    moveResource(refundMover(deps), await getRefund(deps, caller, refundId), action, {
      also: async (next, session) => {
        // A failed refund gives its amount back to the payment, in the same transaction.
        if (next.status === "failed") await releaseRefund(deps.payments, next.paymentId, next.amountMinor, session);
        await claim(session, next);
      },
    }),
  );
}

/**
 * Applies what provider account `providerAccountId` reported of refund `refundId` (Bayad's id,
 * from the provider refund's metadata): succeeded, or failed (its amount goes back to the
 * payment, in the same transaction). Idempotent; a refund of another account, or unknown here,
 * is ignored (undefined).
 */
export async function applyProviderRefundOutcome(
  deps: RefundsDeps,
  providerAccountId: string,
  refundId: string,
  outcome: { status: "succeeded" | "failed"; providerReference: string; fee?: number },
): Promise<RefundRecord | undefined> {
  const record = await deps.repository.findByIdForProvider(refundId);
  if (!record || record.providerAccountId !== providerAccountId) return undefined;
  if (record.status !== "pending") return record;
  return moveResource(refundMover(deps), record, outcome.status === "succeeded" ? "succeed" : "fail", {
    extra: {
      ...(record.providerReference === undefined ? { providerReference: outcome.providerReference } : {}),
      ...(outcome.fee === undefined ? {} : { feeMinor: outcome.fee }),
    },
    also: async (next, session) => {
      if (next.status === "failed") await releaseRefund(deps.payments, next.paymentId, next.amountMinor, session);
    },
  });
}

import { AppError, CURRENCY, fromStoredMetadata, newId, notFound, toStoredMetadata, type CallerContext, type Money } from "@bayad/kit";
import { createResource, moveResource, type Outbox } from "@bayad/events";
import { actOnce, claimUnchanged, createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import {
  askProvider,
  chooseProvider,
  hostedPageResource,
  hostedPaymentSettlement,
  payerPaymentFacts,
  providerOfResource,
  type HostedPaymentSettlement,
  type PayerAction,
  type PaymentProviders,
  type ProviderChoice,
} from "@bayad/provider";
import type { Session, Store } from "@bayad/store";
import { paymentLinkStates, paymentLinkToProto, type LinkPayment, type PaymentLinkRecord } from "./payment-link.js";
import type { PaymentLinksRepository } from "./payment-links-repository.js";

export interface PaymentLinksDeps {
  store: Store;
  repository: PaymentLinksRepository;
  outbox: Outbox;
  providers: PaymentProviders;
  now: () => Date;
  /** What each Idempotency-Key did, for its window. */
  keys: IdempotencyKeys;
}

export interface CreatePaymentLinkInput {
  referenceId: string;
  amountMinor: number;
  description: string;
  remarks: string;
  metadata: Record<string, string>;
}

/** The metadata key the service owns: it always holds the link's referenceId. */
const SERVICE_REFERENCE_KEY = "service_reference_id";

/**
 * The list has no paging in the contract (ListPaymentLinksRequest is empty), so it is bounded:
 * the newest 1000 links, which keeps one answer (and one store query) a known size.
 */
const LIST_LIMIT = 1000;

type Action = Parameters<typeof paymentLinkStates.next>[1];

/** How payment links are written: their collection, state table and events. */
export function linkMover(deps: PaymentLinksDeps) {
  return {
    store: deps.store,
    collection: deps.repository.collection,
    outbox: deps.outbox,
    states: paymentLinkStates,
    resource: "payment_link",
    snapshot: (next: PaymentLinkRecord) => ({ case: "paymentLink" as const, value: paymentLinkToProto(next) }),
    now: deps.now,
  };
}

type Claim = (session: Session, result: PaymentLinkRecord) => Promise<void>;

/** Moves the link, recording the request's Idempotency-Key in the same transaction. */
function move(deps: PaymentLinksDeps, record: PaymentLinkRecord, action: Action, claim?: Claim, extra?: Partial<PaymentLinkRecord>) {
  return moveResource(linkMover(deps), record, action, { also: claim && ((next, session) => claim(session, next)), ...(extra ? { extra } : {}) });
}

function referenceTaken(): AppError {
  return new AppError("RESOURCE_ALREADY_EXISTS", "A payment link with this referenceId already exists.", {
    details: ["referenceId: a payment link with this reference already exists"],
  });
}

/**
 * Creates an active payment link, or returns the one this Idempotency-Key created within its window. The
 * provider's hosted page is asked for before anything is written: the project's own provider
 * account when it has one for the environment (a PayMongo link, whose reference number and
 * checkout URL the link shows), else the environment's default (the sandbox, whose page is a pure
 * function of the link id). A crash in between leaves nothing half-made here, and a retry asks
 * again: at PayMongo that makes a second link, but only the stored one's URL is ever handed out,
 * so the first, which no payer saw, cannot be paid. The referenceId pre-check spares the
 * provider a page that could never be stored; the unique index still decides races.
 */
export async function createPaymentLink(
  deps: PaymentLinksDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreatePaymentLinkInput,
): Promise<PaymentLinkRecord> {
  const choice = await chooseProvider(deps.providers, caller);
  return createOnce(deps.keys, caller, "createPaymentLink", {
    existing: (linkId) => deps.repository.findById(caller, linkId),
    create: (claim) => writePaymentLink(deps, choice, caller, input, claim),
  });
}

async function writePaymentLink(
  deps: PaymentLinksDeps,
  { provider, providerAccountId }: ProviderChoice,
  caller: CallerContext & { idempotencyKey: string },
  input: CreatePaymentLinkInput,
  claim: (session: Session, linkId: string) => Promise<void>,
): Promise<PaymentLinkRecord> {
  if (await deps.repository.findByReference(caller, input.referenceId)) throw referenceTaken();

  const linkId = newId("link");
  const amount: Money = { amountMinor: input.amountMinor, currency: CURRENCY };
  const page = await askProvider(() =>
    provider.createHostedPayment(
      { kind: "payment_link", resourceId: linkId, referenceId: input.referenceId, amount, description: input.description },
      { environment: caller.environment, idempotencyKey: caller.idempotencyKey },
    ),
  );
  const now = deps.now();
  const record: PaymentLinkRecord = {
    _id: linkId,
    projectId: caller.projectId,
    environment: caller.environment,
    referenceId: input.referenceId,
    amountMinor: input.amountMinor,
    currency: CURRENCY,
    description: input.description,
    remarks: input.remarks,
    // Set last so that a supplied value for the key is replaced.
    metadata: toStoredMetadata({ ...input.metadata, [SERVICE_REFERENCE_KEY]: input.referenceId }),
    status: "active",
    url: page.url,
    pageToken: page.pageToken,
    providerReference: page.providerReference,
    ...(providerAccountId !== undefined ? { providerAccountId } : {}),
    referenceNumber: page.referenceNumber,
    idempotencyKey: caller.idempotencyKey,
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
  try {
    return await createResource(linkMover(deps), record, { also: (_created, session) => claim(session, linkId) });
  } catch (error) {
    if (deps.repository.conflictOf(error) === "reference") throw referenceTaken();
    throw error;
  }
}

/** The caller's links, newest first, at most LIST_LIMIT. */
export function listPaymentLinks(deps: PaymentLinksDeps, caller: CallerContext): Promise<PaymentLinkRecord[]> {
  return deps.repository.listNewestFirst(caller, LIST_LIMIT);
}

/** One of the caller's links; another project's or environment's link does not exist for it. */
export async function getPaymentLink(deps: PaymentLinksDeps, caller: CallerContext, linkId: string): Promise<PaymentLinkRecord> {
  const record = await deps.repository.findById(caller, linkId);
  if (!record) throw notFound("payment link", linkId);
  return record;
}

/**
 * Archives (archive=true) or reactivates a link. Asking for the archive state it already has is
 * a no-op (no write, no event), also when a concurrent request got there first: so
 * `archive: false` returns a paid link (never archived) unchanged, while `archive: true` on it
 * refuses with INVALID_STATE_TRANSITION. A retry with the same key answers as the first call did.
 */
export async function setPaymentLinkArchived(
  deps: PaymentLinksDeps,
  caller: CallerContext & { idempotencyKey: string },
  linkId: string,
  archive: boolean,
): Promise<PaymentLinkRecord> {
  const hasWanted = (link: PaymentLinkRecord) => (link.status === "archived") === archive;
  return actOnce<PaymentLinkRecord>(deps.keys, caller, archive ? "archivePaymentLink" : "unarchivePaymentLink", linkId, async (claim) => {
    let record = await getPaymentLink(deps, caller, linkId);
    if (hasWanted(record)) return claimUnchanged(deps.store, claim, record);
    let page: Partial<PaymentLinkRecord> | undefined;
    if (record.providerAccountId !== undefined) {
      const atProvider = await setArchivedAtProvider(deps, caller, record, archive);
      record = atProvider.record;
      page = atProvider.page;
    }
    try {
      return await move(deps, record, archive ? "archive" : "unarchive", claim, page);
    } catch (error) {
      if (error instanceof AppError && error.code === "INVALID_STATE_TRANSITION") {
        const fresh = await deps.repository.findById(caller, linkId);
        if (fresh && hasWanted(fresh)) return claimUnchanged(deps.store, claim, fresh);
      }
      throw error;
    }
  });
}

/**
 * A link made at a provider account is closed at the provider first (PayMongo archives the
 * link, Xendit expires the invoice), so that a link Bayad shows archived cannot be paid there.
 * The provider says whether it was paid meanwhile: if so, the link is marked paid here (and the
 * archive then refuses, as for any paid link) rather than hiding a payment that went through.
 *
 * Unarchiving makes the link payable again: PayMongo unarchives the same link; an expired Xendit
 * invoice cannot be paid again, so the link gets a new invoice, and its `url`,
 * `providerReference` and `referenceNumber` change with the unarchive (`page`).
 */
async function setArchivedAtProvider(
  deps: PaymentLinksDeps,
  caller: CallerContext & { idempotencyKey: string },
  record: PaymentLinkRecord,
  archive: boolean,
): Promise<{ record: PaymentLinkRecord; page?: Partial<PaymentLinkRecord> }> {
  const provider = await providerOfResource(deps.providers, record);
  if (archive) {
    if (!provider.closeHostedPayment) throw new Error(`the ${provider.name} adapter cannot close a hosted payment`);
    const state = await askProvider(() => provider.closeHostedPayment!(record.providerReference));
    if (state.status !== "paid") return { record };
    await applyProviderLinkPayment(deps, record.providerAccountId!, record._id, hostedPaymentSettlement(state));
    return { record: (await deps.repository.findByIdForPage(record._id)) ?? record };
  }
  if (!provider.reopenHostedPayment) throw new Error(`the ${provider.name} adapter cannot reopen a hosted payment`);
  const page = await askProvider(() =>
    provider.reopenHostedPayment!(
      {
        kind: "payment_link",
        resourceId: record._id,
        referenceId: record.referenceId,
        amount: { amountMinor: record.amountMinor, currency: record.currency },
        description: record.description,
      },
      record.providerReference,
      { environment: record.environment, idempotencyKey: caller.idempotencyKey },
    ),
  );
  if (page.providerReference === record.providerReference && page.url === record.url) return { record };
  return { record, page: { providerReference: page.providerReference, url: page.url, referenceNumber: page.referenceNumber, pageToken: page.pageToken } };
}

/**
 * What the payer did, decided by the provider (the sandbox declines its decline scenario). Only
 * an active link can be paid, so an archived or paid one refuses before the provider is asked. A
 * declined payment leaves the link active: a link is consumed only by a payment that went through.
 */
async function applyPayerAction(deps: PaymentLinksDeps, record: PaymentLinkRecord, action: PayerAction, claim?: Claim) {
  paymentLinkStates.next(record.status, "pay");
  const amount = { amountMinor: record.amountMinor, currency: record.currency };
  // A link made at a provider account reaches that account, whose adapter refuses simulated payer actions.
  const provider = await providerOfResource(deps.providers, record);
  const decided = provider.decidePayment(amount, fromStoredMetadata(record.metadata), action);
  // The sandbox's payment has no id of its own: refunds of the link name the link.
  if (decided === "paid") return move(deps, record, "pay", claim, { providerPayment: { paidAt: deps.now(), ...payerPaymentFacts(provider, amount) } });
  return claim ? claimUnchanged(deps.store, claim, record) : record;
}

/** Test helper: report a payer's payment of a test-mode link, as the provider would; a retry with the key answers the same. */
export async function simulatePaymentLinkPayment(
  deps: PaymentLinksDeps,
  caller: CallerContext & { idempotencyKey: string },
  linkId: string,
  action: PayerAction,
): Promise<PaymentLinkRecord> {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<PaymentLinkRecord>(deps.keys, caller, `${action}PaymentLink`, linkId, async (claim) =>
    applyPayerAction(deps, await getPaymentLink(deps, caller, linkId), action, claim),
  );
}

/** The sandbox's hosted link page: what it shows (to a request with the link's page token). */
export async function getHostedPaymentLink(deps: PaymentLinksDeps, linkId: string, pageToken: string): Promise<PaymentLinkRecord> {
  return hostedPageResource(await deps.repository.findByIdForPage(linkId), pageToken);
}

/** The sandbox's hosted link page: the payer pays or gives up. */
export async function submitHostedPaymentLink(
  deps: PaymentLinksDeps,
  linkId: string,
  pageToken: string,
  action: PayerAction,
): Promise<PaymentLinkRecord> {
  return applyPayerAction(deps, await getHostedPaymentLink(deps, linkId, pageToken), action);
}

/**
 * The provider says the link was paid (the reconciler read it at the link's provider account): an
 * active link becomes `paid`, as a payer's payment on the sandbox's page makes it, with its event.
 * Idempotent: a link already paid, or not of that account, is left as it is (false). An archived
 * link stays archived (its state table cannot take a payment); the reconciler reads active links only.
 */
export async function applyProviderLinkPayment(
  deps: PaymentLinksDeps,
  providerAccountId: string,
  linkId: string,
  payment?: HostedPaymentSettlement,
): Promise<boolean> {
  const record = await deps.repository.findByIdForPage(linkId);
  if (!record || record.providerAccountId !== providerAccountId || record.status !== "active") return false;
  await move(deps, record, "pay", undefined, { providerPayment: linkPaymentOf(payment, deps.now()) });
  return true;
}

/** The provider's payment as the link keeps it; a link PayMongo says is paid without naming the payment keeps no id. */
function linkPaymentOf(payment: HostedPaymentSettlement | undefined, now: Date): LinkPayment {
  return {
    ...(payment?.id ? { providerPaymentId: payment.id } : {}),
    ...(payment?.method === undefined ? {} : { method: payment.method }),
    ...(payment?.paymentMethod === undefined ? {} : { paymentMethod: payment.paymentMethod }),
    ...(payment?.fee === undefined ? {} : { feeMinor: payment.fee }),
    paidAt: payment?.paidAt ?? now,
  };
}

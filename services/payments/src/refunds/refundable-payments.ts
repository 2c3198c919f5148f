import type { Collection, Session } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";

/** What refunds need of a payment document (a checkout, a payment intent, or a paid link or invoice). */
export interface RefundablePayment {
  _id: string;
  projectId: string;
  environment: string;
  status: string;
  amountMinor: number;
  /** Set to the amount when the payment completes; refunds take from it. */
  refundableMinor?: number;
  /** The project's provider account the payment was made with (absent: the sandbox). */
  providerAccountId?: string;
  /** The provider's id of the payment (PayMongo's `pay_…`), which the provider's refund names. */
  providerPaymentId?: string;
  /** The method the payer used, as the provider names it (`gcash`, `qrph`…), when the provider said. */
  paymentMethodUsed?: string;
  /** When the provider took the payment, when it said. */
  paidAt?: Date;
  /** The provider (`paymongo`, `xendit`, `sandbox`); absent on payments made before routing (see providerNameOf). */
  provider?: string;
  /** The method in Bayad's names (`gcash`, `maya`…), once known. */
  paymentMethod?: string;
}

type Scope = Pick<CallerContext, "projectId" | "environment">;

/**
 * The payment collections refunds may draw on, by id prefix, with the status that means paid:
 * checkouts, payment intents, and the links and invoices paid at their hosted pages (which this
 * service learns of from the links and billing services' events, see hosted-payments).
 */
export type RefundableCollections = Record<"chk" | "pi" | "link" | "inv", { collection: Collection<RefundablePayment & { aggregateVersion: number }>; paidStatus: string }>;

const PREFIXES = ["chk", "pi", "link", "inv"] as const;

export type Reservation =
  | { reserved: true }
  | { reserved: false; reason: "not_found" | "not_paid" | "exceeds"; refundableMinor?: number };

function sourceOf(collections: RefundableCollections, paymentId: string) {
  const prefix = paymentId.slice(0, paymentId.indexOf("_"));
  return (PREFIXES as readonly string[]).includes(prefix) ? collections[prefix as (typeof PREFIXES)[number]] : undefined;
}

/**
 * Takes `amountMinor` from a payment's refundable balance in one conditional update, so that
 * however many refunds race, the sum of what they take never exceeds what was paid.
 */
export async function reserveRefund(
  collections: RefundableCollections,
  scope: Scope,
  paymentId: string,
  amountMinor: number,
  session: Session,
): Promise<Reservation> {
  const source = sourceOf(collections, paymentId);
  if (!source) return { reserved: false, reason: "not_found" };
  const filter = { _id: paymentId, projectId: scope.projectId, environment: scope.environment };
  const taken = await source.collection.updateOne(
    { ...filter, status: source.paidStatus, refundableMinor: { $gte: amountMinor } },
    { $inc: { refundableMinor: -amountMinor } },
    { session },
  );
  if (taken.matched === 1) return { reserved: true };
  const payment = await source.collection.findOne(filter, { session });
  if (!payment) return { reserved: false, reason: "not_found" };
  if (payment.status !== source.paidStatus) return { reserved: false, reason: "not_paid" };
  return { reserved: false, reason: "exceeds", refundableMinor: payment.refundableMinor ?? 0 };
}

/** The payment `paymentId` of the caller's project, whatever its status (undefined: no such payment). */
export async function findRefundablePayment(
  collections: RefundableCollections,
  scope: Scope,
  paymentId: string,
): Promise<(RefundablePayment & { paid: boolean }) | undefined> {
  const source = sourceOf(collections, paymentId);
  if (!source) return undefined;
  const payment = await source.collection.findOne({ _id: paymentId, projectId: scope.projectId, environment: scope.environment });
  return payment ? { ...payment, paid: payment.status === source.paidStatus } : undefined;
}

/** Where a payment was made: the provider account and the provider's payment id, once paid. */
export function providerSideOf(payment: RefundablePayment): Pick<RefundablePayment, "providerAccountId" | "providerPaymentId"> {
  return {
    ...(payment.providerAccountId === undefined ? {} : { providerAccountId: payment.providerAccountId }),
    ...(payment.providerPaymentId === undefined ? {} : { providerPaymentId: payment.providerPaymentId }),
  };
}

/**
 * The method, time and fee of a provider's payment, as a paid payment record keeps them (the
 * method and time for the provider's refund rules; the fee for fees and net).
 */
export const paymentFacts = (payment: { method?: string; paidAt?: Date; fee?: number }) => ({
  ...(payment.method === undefined ? {} : { paymentMethodUsed: payment.method }),
  ...(payment.paidAt === undefined ? {} : { paidAt: payment.paidAt }),
  ...(payment.fee === undefined ? {} : { feeMinor: payment.fee }),
});

/** Gives a failed refund's amount back to the payment's refundable balance. */
export async function releaseRefund(collections: RefundableCollections, paymentId: string, amountMinor: number, session: Session) {
  const source = sourceOf(collections, paymentId);
  if (!source) return;
  await source.collection.updateOne({ _id: paymentId }, { $inc: { refundableMinor: amountMinor } }, { session });
}

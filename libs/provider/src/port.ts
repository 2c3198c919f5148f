import { AppError, type Environment, type Money } from "@bayad/kit";
import type { IntentMethodOption } from "./payment-intent-methods.js";
import type { PaymentMethodName } from "./payment-methods.js";

/**
 * The payment-provider port. The payments service talks to providers only through this, so the
 * sandbox (test mode) and real adapters (live mode) are interchangeable. Every call carries the
 * Idempotency-Key of the request that caused it, so a retried call never creates twice at the
 * provider either.
 */
export interface ProviderCallContext {
  environment: Environment;
  idempotencyKey: string;
}

export interface CheckoutSessionRequest {
  checkoutId: string;
  referenceId: string;
  amount: Money;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
}

export interface CheckoutSession {
  providerReference: string;
  /** Where the payer pays. May be a path (the sandbox's hosted pages live on the gateway). */
  checkoutUrl: string;
  /** The secret part of checkoutUrl that proves a hosted-page request came from that URL. */
  pageToken: string;
}

export interface PaymentIntentConfirmation {
  providerReference: string;
  /** processing: the provider accepted it and will report the outcome; declined: it refused. */
  outcome: "processing" | "declined";
  /** Where the payer completes the payment (an e-wallet's authorisation page), when the provider needs that. */
  nextActionUrl?: string;
}

export interface PaymentIntentConfirmationRequest {
  paymentIntentId: string;
  referenceId: string;
  amount: Money;
  /** The provider's method type to pay with (PayMongo: `gcash`, `paymaya`…); default: the provider's choice. */
  paymentMethodType?: string;
  /** Where the provider sends the payer back after a redirect. */
  returnUrl?: string;
}

/** A payment intent paid on the wallet's or bank's own page, made at the provider at once. */
export interface RedirectPaymentIntentRequest {
  paymentIntentId: string;
  referenceId: string;
  amount: Money;
  method: IntentMethodOption;
  /** Where the provider sends the payer back once they paid or gave up (absolute http/https). */
  returnUrl: string;
}

export interface RedirectPaymentIntent {
  providerReference: string;
  /** awaiting_payer: the payer pays at redirectUrl; declined: the provider refused the method at once. */
  outcome: "awaiting_payer" | "declined";
  /** Where the payer pays. May be a path (the sandbox's pages live on the gateway); "" when declined. */
  redirectUrl: string;
  /** The secret part of redirectUrl that proves a page request came from that URL ("" for providers hosting their own). */
  pageToken: string;
}

export interface QrPhRequest {
  paymentIntentId: string;
  referenceId: string;
  amount: Money;
  description: string;
  /** How long the code can be paid, 60–9000 s; default: the provider's (PayMongo: 1800 s). */
  expirySeconds?: number;
}

export interface QrPhCode {
  providerReference: string;
  /** The EMVCo merchant-presented QR Ph payload. */
  payload: string;
  /** Where the code's image is. May be a path (the sandbox's images are served by the gateway). */
  imageUrl: string;
  /** The secret part of imageUrl that proves an image request came from that URL. */
  pageToken: string;
  /** The image's PNG in Base64, when the provider hands over the image itself (PayMongo) rather than a page to serve it. */
  imagePngBase64?: string;
}

export interface RefundRequest {
  refundId: string;
  paymentId: string;
  amount: Money;
  reason: string;
  /** The provider's own id of the payment (PayMongo: `pay_…`), which its refunds need. */
  providerPaymentId?: string;
}

/** A payment about to be refunded, as Bayad recorded it: what a provider's refund rules look at. */
export interface RefundedPayment {
  /** Bayad's id (`chk_…`, `pi_…`, `link_…`, `inv_…`). */
  paymentId: string;
  amountMinor: number;
  /** What is left to refund of it, before this refund. */
  refundableMinor: number;
  /** The provider's id of the payment (PayMongo's `pay_…`), when known. */
  providerPaymentId?: string;
  /** The method the payer used, as the provider names it (`gcash`, `qrph`, `card`…), when known. */
  method?: string;
  /** When the provider took the payment, when known. */
  paidAt?: Date;
  /** Refunds of this payment that have not settled yet (pending). */
  openRefunds: number;
}

/**
 * The provider answered a refund request with a refusal of its own (PayMongo: a 4xx to POST
 * /refunds), so it made no refund: the refund fails at once instead of staying pending. The code
 * is the catalogue's (REFUND_NOT_ALLOWED, REFUND_IN_PROGRESS…); `details` carry the provider's
 * own code (`provider: resource_pending_state`).
 */
export class ProviderRefusedRefundError extends AppError {}

/**
 * A payment the provider collects on its own hosted page for a Bayad resource that is not a
 * checkout: a payment link, or an invoice of a subscription.
 */
export interface HostedPaymentRequest {
  kind: "payment_link" | "invoice";
  /** The Bayad id of the link or invoice. */
  resourceId: string;
  referenceId: string;
  amount: Money;
  description: string;
}

export interface HostedPayment {
  providerReference: string;
  /** The short reference the provider shows the payer and prints on receipts. */
  referenceNumber: string;
  /** Where the payer pays. May be a path (the sandbox's hosted pages live on the gateway). */
  url: string;
  /** The secret part of url that proves a hosted-page request came from that URL. */
  pageToken: string;
}

/**
 * A hosted payment as the provider has it now, read with the account's key (never from a
 * callback's body): open (the payer can still pay), paid, or expired (nobody can pay it any more).
 */
export interface HostedPaymentState {
  status: "open" | "paid" | "expired";
  /** When paid: the provider's id of the payment, as its refunds need it (PayMongo `pay_…`; Xendit the invoice, or its payment request). */
  providerPaymentId?: string;
  /** When paid: the payer's method as the provider names it (PayMongo `gcash`; Xendit `GCASH`). */
  method?: string;
  /** When paid: that method in Bayad's names; absent when unknown. */
  paymentMethod?: PaymentMethodName;
  /** When paid: what the provider kept, in centavos, tax on the fee included; absent when not reported. */
  fee?: number;
  paidAt?: Date;
  amountMinor: number;
  currency: string;
}

/** What the payer did on a hosted page or through a test helper, before the provider decides. */
export type PayerAction = "pay" | "fail";

export interface AmountCheckRequest {
  flow: "checkout" | "payment_intent" | "hosted_payment";
  amount: Money;
  /** The provider's method type (PayMongo: `qrph`, `gcash`…), for flows paid by one method. */
  paymentMethodType?: string;
  /** The bank of an online-banking method (PayMongo `dob`: `bpi` | `ubp`). */
  bankCode?: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Payment method codes the provider accepts, as capabilities reports them. */
  readonly paymentMethods: readonly string[];
  /** The ways a payment intent can be paid by redirect here (Bayad's names; banks once per bank). */
  readonly paymentIntentMethods: readonly IntentMethodOption[];
  createCheckoutSession(request: CheckoutSessionRequest, context: ProviderCallContext): Promise<CheckoutSession>;
  /** For reconciliation after an unanswered create: the session if the provider has it, else null. */
  retrieveCheckoutSession(request: CheckoutSessionRequest, context: ProviderCallContext): Promise<CheckoutSession | null>;
  confirmPaymentIntent(request: PaymentIntentConfirmationRequest, context: ProviderCallContext): Promise<PaymentIntentConfirmation>;
  /** Creates the intent at the provider with the payer's method attached; the payer then pays at redirectUrl. */
  createRedirectPaymentIntent(request: RedirectPaymentIntentRequest, context: ProviderCallContext): Promise<RedirectPaymentIntent>;
  createQrPh(request: QrPhRequest, context: ProviderCallContext): Promise<QrPhCode>;
  /** Deterministic per resource: asking again for the same resource returns the same page. */
  createHostedPayment(request: HostedPaymentRequest, context: ProviderCallContext): Promise<HostedPayment>;
  /**
   * Reads a hosted payment back by its `providerReference`, for the services' reconcilers. Absent
   * for a provider whose hosted pages Bayad serves itself (the sandbox).
   */
  hostedPaymentState?(providerReference: string): Promise<HostedPaymentState>;
  /**
   * Closes a hosted payment at the provider, so a page Bayad no longer shows (a link archived, an
   * invoice voided) cannot be paid there either (PayMongo archives the link, Xendit expires the
   * invoice). Safe to ask again (one closed already stays closed). Answers its state: `paid`
   * when the payer paid before it could close (nothing was closed: the caller must not hide the
   * payment), else `expired`. Absent for a provider whose pages Bayad serves itself (the sandbox).
   */
  closeHostedPayment?(providerReference: string): Promise<HostedPaymentState>;
  /**
   * Makes a closed hosted payment payable again (a link unarchived): PayMongo unarchives the same
   * link (same page); Xendit cannot re-open an expired invoice, so it makes a new one for the
   * resource, whose `providerReference` and `url` differ (the caller keeps the new ones). Absent
   * for the sandbox.
   */
  reopenHostedPayment?(request: HostedPaymentRequest, providerReference: string, context: ProviderCallContext): Promise<HostedPayment>;
  /** Throws ProviderRefusedRefundError when the provider refuses the refund (it made none). */
  createRefund(request: RefundRequest, context: ProviderCallContext): Promise<{ providerReference: string }>;
  /**
   * Why the provider would refuse this refund by its published rules (methods it cannot refund,
   * windows, minimums, one open refund at a time), checked before anything is written: the
   * catalogue's error naming the rule, or undefined. Absent for a provider without such rules (the sandbox).
   */
  refundRefusal?(payment: RefundedPayment, amountMinor: number, now: Date): AppError | undefined;
  /**
   * Refuses with AMOUNT_OUT_OF_RANGE an amount the provider publishes it would not take for the
   * flow (and the method, when one is named), without calling the provider: services call it
   * before they write anything. Providers without published limits leave it out.
   */
  checkAmount?(request: AmountCheckRequest): void;
  /**
   * What the provider keeps of a payment that decidePayment made paid, in centavos (the sandbox's
   * fee table, sandbox/fees.ts). Absent for providers that report fees on their own resources.
   */
  payerPaymentFee?(amount: Money, method: PaymentMethodName): number;
  /** Whether the provider accepts a payer's payment of this amount (sandbox: the decline scenario). */
  decidePayment(amount: Money, metadata: Record<string, string>, action: PayerAction): "paid" | "failed";
}

/**
 * The provider gave no answer at all (connection reset, timeout at the transport): whether it
 * acted is unknown until reconciled.
 */
export class ProviderNoAnswerError extends Error {
  constructor(operation: string) {
    super(`the payment provider gave no answer to ${operation}`);
    this.name = "ProviderNoAnswerError";
  }
}

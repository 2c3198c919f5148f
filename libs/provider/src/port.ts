import type { Environment, Money } from "@bayad/kit";

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
  createCheckoutSession(request: CheckoutSessionRequest, context: ProviderCallContext): Promise<CheckoutSession>;
  /** For reconciliation after an unanswered create: the session if the provider has it, else null. */
  retrieveCheckoutSession(request: CheckoutSessionRequest, context: ProviderCallContext): Promise<CheckoutSession | null>;
  confirmPaymentIntent(request: PaymentIntentConfirmationRequest, context: ProviderCallContext): Promise<PaymentIntentConfirmation>;
  createQrPh(request: QrPhRequest, context: ProviderCallContext): Promise<QrPhCode>;
  /** Deterministic per resource: asking again for the same resource returns the same page. */
  createHostedPayment(request: HostedPaymentRequest, context: ProviderCallContext): Promise<HostedPayment>;
  createRefund(request: RefundRequest, context: ProviderCallContext): Promise<{ providerReference: string }>;
  /**
   * Refuses with AMOUNT_OUT_OF_RANGE an amount the provider publishes it would not take for the
   * flow (and the method, when one is named), without calling the provider: services call it
   * before they write anything. Providers without published limits leave it out.
   */
  checkAmount?(request: AmountCheckRequest): void;
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

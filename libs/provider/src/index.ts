export {
  ProviderNoAnswerError,
  ProviderRefusedRefundError,
  type RefundedPayment,
  type PaymentProvider,
  type ProviderCallContext,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type PaymentIntentConfirmation,
  type PaymentIntentConfirmationRequest,
  type QrPhRequest,
  type QrPhCode,
  type RefundRequest,
  type HostedPaymentRequest,
  type HostedPayment,
  type HostedPaymentState,
  type PayerAction,
  type RedirectPaymentIntentRequest,
  type RedirectPaymentIntent,
  type AmountCheckRequest,
} from "./port.js";
export {
  REDIRECT_INTENT_METHODS,
  ONLINE_BANKING_BANK_CODES,
  ALL_INTENT_METHOD_OPTIONS,
  isRedirectIntentMethod,
  isOnlineBankingBankCode,
  intentMethodProblems,
  offersIntentMethod,
  type RedirectIntentMethod,
  type OnlineBankingBankCode,
  type IntentMethodOption,
} from "./payment-intent-methods.js";
export { PAYMENT_METHOD_NAMES, isPaymentMethodName, type PaymentMethodName } from "./payment-methods.js";
export { SANDBOX_FEES, sandboxFeeMinor, type SandboxFeeRate } from "./sandbox/fees.js";
export { paymongoFeeOf, paymongoPaymentMethodOf } from "./paymongo/paymongo-payment-facts.js";
export { createSandboxProvider, type SandboxProviderOptions } from "./sandbox/sandbox-provider.js";
export { scenarioMetadataKey } from "./sandbox/scenarios.js";
export { parseQrPhPayload, fitsQrPhText, MAX_QRPH_AMOUNT_MINOR, type ParsedQrPhPayload } from "./qrph/qrph-payload.js";
export { renderQrPng } from "./qrph/qr-image.js";
export {
  providerOf,
  chooseProvider,
  providerOfResource,
  askProvider,
  type PaymentProviders,
  type ProviderAccounts,
  type ProviderChoice,
} from "./providers.js";
export { pageTokenMatches, hostedPageResource } from "./page-token.js";
export { readSandboxOptions } from "./sandbox/sandbox-config.js";
export { payerActionOf } from "./payer-action.js";
export { payerPaymentFacts } from "./payer-payment.js";
export { createPaymongoClient, type PaymongoClient, type PaymongoClientOptions } from "./paymongo/paymongo-client.js";
export { PAYMONGO_API_BASE_DEFAULT, type PaymongoDocument } from "./paymongo/paymongo-http.js";
export {
  createPaymongoProvider,
  BAYAD_RESOURCE_ID,
  BAYAD_IDEMPOTENCY_KEY,
  type PaymongoProvider,
  type PaymongoProviderOptions,
} from "./paymongo/paymongo-provider.js";
export type {
  PaymongoPaymentState,
  PaymongoCheckoutSessionState,
  PaymongoPaymentIntentState,
  PaymongoRefundState,
  PaymongoLinkState,
  PaymongoResource,
  PaymongoNextAction,
} from "./paymongo/paymongo-resources.js";
export {
  paymongoRefundRefusal,
  paymongoRefundRefusalOf,
  type PaymongoRefundRule,
  type PaymongoMethodRefunds,
} from "./paymongo/paymongo-refund-rules.js";
export { refundsOf, refundStateOf } from "./paymongo/paymongo-resources.js";
export { PaymongoRejectedError, PaymongoKeyRefusedError, type PaymongoErrorItem } from "./paymongo/paymongo-errors.js";
export { createPaymongoAccountSetup, type ProviderAccountSetup, type PaymongoAccountSetupOptions } from "./paymongo/paymongo-account-setup.js";
export {
  verifyPaymongoSignature,
  type PaymongoSignatureInput,
  type PaymongoSignatureRefusal,
  type PaymongoSignatureResult,
} from "./paymongo/paymongo-signature.js";
export { parsePaymongoEvent, PAYMONGO_WEBHOOK_EVENTS, type PaymongoEvent } from "./paymongo/paymongo-event.js";
export {
  assertPaymongoAmount,
  checkoutMethodsAccepting,
  paymongoAmountLimit,
  paymongoAmountProblems,
  type PaymongoAmountLimit,
  type PaymongoFlow,
} from "./paymongo/paymongo-amount-limits.js";
export { paymongoIdempotencyKey } from "./paymongo/paymongo-idempotency-key.js";
export {
  providerSecretPurposes,
  sealProviderSecretKey,
  sealProviderWebhookSecret,
  openProviderSecretKey,
  openProviderWebhookSecret,
  sealProviderCallbackToken,
  openProviderCallbackToken,
  providerAccountSealedValues,
} from "./provider-secrets.js";
export {
  createResolvedProviderAccounts,
  type ResolvedProviderAccounts,
  type ResolvedProviderAccountsOptions,
  type ResolveRequest,
} from "./resolved-provider-accounts.js";
export { providerAccountsOf, type PaymentsAddress } from "./provider-accounts-client.js";
export {
  startHostedPaymentReconciler,
  hostedPaymentSettlement,
  type HostedPaymentReconciler,
  type HostedPaymentReconcilerOptions,
  type HostedPaymentSettlement,
  type UnsettledHostedPayment,
} from "./hosted-payment-reconciler.js";
export { readProviderAccountsConfig, type ProviderAccountsConfig } from "./provider-accounts-config.js";
export { toXenditAmount, readXenditAmount, XENDIT_MAX_EXACT_MINOR, type XenditAmountReading } from "./xendit/xendit-amounts.js";
export {
  verifyXenditCallbackToken,
  XENDIT_CALLBACK_TOKEN_HEADER,
  type XenditCallbackTokenInput,
  type XenditCallbackTokenRefusal,
  type XenditCallbackTokenResult,
} from "./xendit/xendit-callback-token.js";
export {
  xenditPaymentRequestState,
  xenditPaymentState,
  xenditSessionState,
  xenditInvoiceState,
  xenditRefundState,
  xenditFailureKind,
  type XenditPaymentRequestState,
  type XenditPaymentState,
  type XenditSessionState,
  type XenditInvoiceState,
  type XenditRefundState,
  type XenditFailureKind,
} from "./xendit/xendit-statuses.js";
export {
  XenditRejectedError,
  XenditKeyRefusedError,
  xenditErrorOf,
  xenditFailureOf,
  type XenditErrorAnswer,
  type XenditFailure,
} from "./xendit/xendit-errors.js";
export { parseXenditEvent, XENDIT_EVENTS, type XenditEventHint, type XenditEventSubject, type XenditResource } from "./xendit/xendit-events.js";
export { createXenditClient, type XenditClient, type XenditClientOptions } from "./xendit/xendit-client.js";
export { XENDIT_API_BASE_DEFAULT, XENDIT_API_VERSION, type XenditObject } from "./xendit/xendit-http.js";
export { createXenditProvider, type XenditProvider, type XenditProviderOptions } from "./xendit/xendit-provider.js";
export { createXenditAccountSetup, type XenditAccountSetup, type XenditAccountSetupOptions } from "./xendit/xendit-account-setup.js";
export { XENDIT_CHANNELS, XENDIT_CHANNEL_FACTS, xenditChannelOf, xenditAccountChannels, xenditPaymentMethodOf, type XenditChannel, type XenditChannelFacts } from "./xendit/xendit-channels.js";
export { xenditRefundRefusal, xenditRefundRefusalOf } from "./xendit/xendit-refund-rules.js";
export type { XenditSession, XenditPaymentRequest, XenditRefund, XenditAction, XenditInvoice } from "./xendit/xendit-resources.js";

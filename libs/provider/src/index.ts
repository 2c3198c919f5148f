export {
  ProviderNoAnswerError,
  type PaymentProvider,
  type ProviderCallContext,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type PaymentIntentConfirmation,
  type QrPhRequest,
  type QrPhCode,
  type RefundRequest,
  type HostedPaymentRequest,
  type HostedPayment,
  type PayerAction,
} from "./port.js";
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

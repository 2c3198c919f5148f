import type { DeliveryAttempt, DeliveryMode } from "./callback-deliveries.js";
import type { CallbackSettings } from "./callback-settings.js";
import type { Fault } from "./faults.js";
import type { RateLimitOptions } from "./rate-limit.js";
import type { Settings } from "./simulation.js";

export interface XenditSimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Where the simulator writes one line per callback attempt and internal failure; default nowhere. Never a key or token. */
  log?: (line: string) => void;
  /** Waits between callback attempts; default Xendit's six retries scaled down 60 times. Tests pass e.g. [20, 20]. */
  callbackRetryDelaysMs?: number[];
  /** A callback not answered within this is a failed attempt. Default 10 000. */
  callbackTimeoutMs?: number;
  /** Per endpoint per account; default Xendit's 60 (test) / 600 (live) a minute. */
  rateLimit?: Partial<RateLimitOptions>;
  /** How long an idempotency-key's first answer is replayed. Default 24 h (Xendit's is UNCONF). */
  idempotencyKeyTtlMs?: number;
  /** Defaults: idempotency-key ignored on POST /v3/payment_requests (UNCONF), 2000 ms to settle a refund, each channel's request expiry. */
  settings?: Partial<Settings>;
}

export interface XenditSimulator {
  /** The API base, e.g. http://127.0.0.1:PORT, standing in for https://api.xendit.co. */
  readonly url: string;
  close(): Promise<void>;
  /** The payer pays the request (whatever the key's mode, unlike the API's simulate). */
  payPaymentRequest(id: string): { paymentId: string };
  failPaymentRequest(id: string, failureCode?: string): { paymentId: string };
  expirePaymentRequest(id: string): void;
  paySession(id: string, channelCode?: string): { paymentRequestId: string; paymentId: string };
  failSessionAttempt(id: string, channelCode?: string, failureCode?: string): { paymentId: string };
  expireSession(id: string): void;
  /** The payer pays the invoice on its page with `channelCode` (default: the first it offers). */
  payInvoice(id: string, channelCode?: string): { paymentId: string };
  /** The invoice runs out of time (as its invoice_duration would): EXPIRED, and its callback. */
  expireInvoice(id: string): void;
  /** A PAID invoice's money reaches the balance: SETTLED. */
  settleInvoice(id: string): void;
  settleRefund(id: string, status: "SUCCEEDED" | "FAILED", failureCode?: string): void;
  /** Callback URLs (invoice callbacks to `invoiceUrls` when given) and token for the account of `secretKey`, or for every account without its own. */
  setCallbacks(settings: CallbackSettings, secretKey?: string): void;
  setCallbackDelivery(mode: { mode: DeliveryMode["mode"]; delayMs?: number }): DeliveryMode;
  setCallbackRetryDelays(delaysMs: number[]): number[];
  /** The next `times` API requests matching method and path prefix meet this fault. */
  injectFault(fault: Fault): void;
  clearFaults(): void;
  setRateLimit(options: Partial<RateLimitOptions>): RateLimitOptions;
  setSettings(settings: Partial<Settings>): Settings;
  /** Every callback attempt so far. */
  deliveries(): DeliveryAttempt[];
  /** Every callback made so far, delivered or not, with the exact body sent. */
  events(): Array<{ id: string; event: string; body: string }>;
  resendEvent(id: string): void;
  /** Every object of a kind, of every account, as the API shows them: to prove what a lost answer made. */
  objects(kind: "payment_request" | "payment" | "session" | "refund" | "invoice"): Array<Record<string, unknown>>;
  /** An object by id as the API shows it, whichever account holds it. */
  find(id: string): Record<string, unknown> | undefined;
}

export { startXenditSimulator } from "./simulator.js";
export { XenditSimulatorError } from "./api-error.js";
export { API_VERSION } from "./request-handler.js";
export type { Fault } from "./faults.js";
export type { CallbackSettings } from "./callback-settings.js";
export type { DeliveryAttempt, DeliveryMode } from "./callback-deliveries.js";
export type { RateLimitOptions } from "./rate-limit.js";
export type { Settings } from "./simulation.js";

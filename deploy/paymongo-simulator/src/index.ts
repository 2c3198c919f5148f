export interface PaymongoSimulatorOptions {
  host?: string; // default 127.0.0.1
  port?: number; // default 0 (a free port)
  /** Milliseconds between a failed delivery and each retry; default 12 retries spread like PayMongo's (~136 min); tests pass e.g. [50, 50, 50]. */
  retrySchedule?: number[];
  /** A delivery that has not answered within this is a failure. Default 30 000. */
  deliveryTimeoutMs?: number;
  /** Consecutive events whose retries were all exhausted before the webhook is disabled (max_retries_exceeded). Default 3. */
  disableAfterExhaustedEvents?: number;
  /** Where the simulator writes one line per delivery attempt and webhook disabled; default nowhere. */
  log?: (line: string) => void;
  /** How long an Idempotency-Key's first result is replayed. Default PayMongo's 24 h. */
  idempotencyKeyTtlMs?: number;
  /** API requests one key may make in a calendar second before it is answered 429 (plain text). Default PayMongo's 100. */
  rateLimitPerSecond?: number;
}

export interface PaymongoSimulator {
  /** The API base, e.g. http://127.0.0.1:PORT; the API is at `${url}/v1/...`. */
  readonly url: string;
  close(): Promise<void>;
  payCheckoutSession(id: string, options?: { method?: string }): Promise<{ paymentId: string }>;
  expireCheckoutSession(id: string): Promise<void>;
  payPaymentIntent(id: string, options?: { method?: string }): Promise<{ paymentId: string }>;
  failPaymentIntent(id: string, options?: { code?: string; message?: string }): Promise<void>;
  expireQrPh(paymentIntentId: string): Promise<void>;
  /** Pays the link (with gcash unless `method` says otherwise). */
  payLink(id: string, options?: { method?: string }): Promise<{ paymentId: string }>;
  settleRefund(id: string, status: "succeeded" | "failed"): Promise<void>;
  /** Moves a paid payment's `paid_at` (ages it past a refund window, say). */
  setPaymentPaidAt(id: string, paidAt: Date): Promise<void>;
  /** How webhook deliveries behave from now on. reorder: hold deliveries and send them newest-first at flushDeliveries(). */
  setWebhookDelivery(mode: { mode: "deliver" | "drop" | "delay" | "duplicate" | "reorder"; delayMs?: number }): void;
  /** The next `times` API requests matching method/path prefix answer with this fault instead. "timeout": never answer (hold the socket); "reset": destroy the socket; 429: PayMongo's plain-text body; code: the error code a status fault answers with (e.g. `available_balance_insufficient`); afterProcessing: the request takes effect (an Idempotency-Key's result is stored), then its answer is lost (replaced by the fault). */
  injectFault(fault: { method?: string; path?: string; status: number | "timeout" | "reset"; times?: number; afterProcessing?: boolean; code?: string }): void;
  /** Disarms every fault not yet used up. */
  clearFaults(): void;
  /** Every delivery attempt so far. */
  deliveries(): Array<{ eventId: string; type: string; url: string; attempt: number; status?: number; error?: string; at: Date }>;
  /** Every event generated so far (delivered or not). */
  events(): Array<{ id: string; type: string; livemode: boolean; body: string }>;
  /**
   * Resolves once every delivery queued so far has been attempted (not dropped ones); in reorder
   * mode sends the held ones first. With `untilSettled`, waits until each has succeeded or run out
   * of retries (use with a short retrySchedule).
   */
  flushDeliveries(options?: { untilSettled?: boolean }): Promise<void>;
  /** Re-sends an event by id to the webhook(s) (like the dashboard's Resend). */
  resendEvent(eventId: string): Promise<void>;
  /**
   * Rolls a secret key as PayMongo's dashboard does: the old key answers 401 from now on (a
   * revoked key), and the new key returned reaches the same account.
   */
  rollSecretKey(secretKey: string): string;
  /**
   * Sends an event PayMongo never made, signed with the webhook's real secret as any holder of it
   * could: `data` is delivered as given (as the event's `data`), to the webhooks subscribed to
   * `type` of the account that owns the object `data.id` names (or of `secretKey`'s account).
   * Proves that Bayad reads the resource back instead of believing a signed event.
   */
  forgeEvent(input: { type: string; data: { id: string; type?: string; attributes: Record<string, unknown> }; secretKey?: string }): { eventId: string };
  /** Inspect a stored object by id (any kind) in PayMongo's JSON:API shape, or undefined. */
  find(id: string): unknown;
  /** Every stored object of a type (`payment_intent`, `refund`, `checkout_session`…), of every account, in PayMongo's JSON:API shape. */
  objects(type: string): unknown[];
}

export { startPaymongoSimulator } from "./simulator.js";
export { PaymongoSimulatorError, type ErrorEntry } from "./api-error.js";
export { paymongoSignature } from "./signature.js";

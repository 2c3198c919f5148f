import { Code } from "@connectrpc/connect";

/**
 * What an error says about the outcome of the mutation that answered with it, for idempotency:
 * - `decided`: the service knows what happened; the answer is replayed for the key from then on.
 * - `refused`: turned away before anything happened (a rate limit); the key is not used up.
 * - `invalid`: the request itself is invalid, as the same request always would be, so nothing
 *   happened, on this attempt or any earlier one; the key is not used up.
 * - `unresolved`: the write may or may not have happened; the outcome must be reconciled.
 */
export type ErrorOutcome = "decided" | "refused" | "invalid" | "unresolved";

interface ErrorEntry {
  http: number;
  grpc: Code;
  message: string;
  /** Default: `decided` below HTTP 500, `unresolved` from 500 up. */
  outcome?: ErrorOutcome;
}

/**
 * The one catalogue of error codes: each machine code with its HTTP status and its gRPC code.
 * Services throw AppError with a code from here; the gateway answers with the same code, so a
 * consumer sees one stable `error.code` whichever side found the problem.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: { http: 400, grpc: Code.InvalidArgument, message: "The request is invalid.", outcome: "invalid" },
  MALFORMED_JSON: { http: 400, grpc: Code.InvalidArgument, message: "The request body is not valid JSON." },
  // MALFORMED_REQUEST, REQUEST_TIMEOUT and HEADERS_TOO_LARGE come from the gateway's HTTP layer, before any operation is known.
  MALFORMED_REQUEST: { http: 400, grpc: Code.InvalidArgument, message: "The request is not well-formed HTTP." },
  IDEMPOTENCY_KEY_REQUIRED: { http: 400, grpc: Code.InvalidArgument, message: "The Idempotency-Key header is required." },
  IDEMPOTENCY_KEY_INVALID: { http: 400, grpc: Code.InvalidArgument, message: "The Idempotency-Key header must be 16 to 255 characters." },
  AUTHENTICATION_REQUIRED: { http: 401, grpc: Code.Unauthenticated, message: "A Bearer credential is required." },
  INVALID_CREDENTIALS: { http: 401, grpc: Code.Unauthenticated, message: "The credential is not valid." },
  INSUFFICIENT_SCOPE: { http: 403, grpc: Code.PermissionDenied, message: "The credential lacks the scope this operation needs." },
  SERVICE_TOKEN_REQUIRED: { http: 403, grpc: Code.PermissionDenied, message: "This operation needs a service access token." },
  TEST_MODE_ONLY: { http: 403, grpc: Code.PermissionDenied, message: "This operation is only available with test-mode credentials." },
  CSRF_TOKEN_INVALID: { http: 403, grpc: Code.PermissionDenied, message: "This change needs the dashboard session's X-CSRF-Token header." },
  ROUTE_NOT_FOUND: { http: 404, grpc: Code.NotFound, message: "No such route." },
  RESOURCE_NOT_FOUND: { http: 404, grpc: Code.NotFound, message: "The resource does not exist." },
  METHOD_NOT_ALLOWED: { http: 405, grpc: Code.Unimplemented, message: "The method is not allowed on this route." },
  RESOURCE_ALREADY_EXISTS: { http: 409, grpc: Code.AlreadyExists, message: "A resource with this identity already exists." },
  INVALID_STATE_TRANSITION: { http: 409, grpc: Code.FailedPrecondition, message: "The resource's status does not allow this operation." },
  REFUND_EXCEEDS_REFUNDABLE: { http: 409, grpc: Code.FailedPrecondition, message: "The refund is larger than what is left to refund of the payment." },
  // A refund its provider does not make (its published rules, checked before anything is written, or
  // its own refusal, after which the refund is failed and its amount given back): details name the
  // rule (`(rule: method_not_refundable)`) or the provider's code (`provider: parameter_above_maximum`).
  REFUND_NOT_ALLOWED: { http: 422, grpc: Code.FailedPrecondition, message: "The payment's provider does not allow this refund." },
  REFUND_WINDOW_PASSED: { http: 422, grpc: Code.FailedPrecondition, message: "The payment is past the window in which its provider refunds it." },
  REFUND_IN_PROGRESS: { http: 409, grpc: Code.FailedPrecondition, message: "Another refund of this payment is still pending; its provider takes one at a time." },
  PROVIDER_NOT_CONFIGURED: { http: 409, grpc: Code.FailedPrecondition, message: "No payment provider is configured for this environment." },
  // The provider answered with an error of its own (its 4xx): what it said is in details.
  PROVIDER_REJECTED: { http: 422, grpc: Code.FailedPrecondition, message: "The payment provider refused the request." },
  // A payment method the environment's provider (account) does not offer for this flow: nothing was sent or written.
  PAYMENT_METHOD_NOT_OFFERED: { http: 422, grpc: Code.FailedPrecondition, message: "The payment method is not offered in this environment.", outcome: "invalid" },
  // The provider's published limits for the payment method refuse the amount; checked before any provider call, so nothing happened.
  AMOUNT_OUT_OF_RANGE: { http: 422, grpc: Code.InvalidArgument, message: "The payment provider does not accept this amount.", outcome: "invalid" },
  // A webhook endpoint's URL Bayad will not deliver to (not https in live mode, a private or metadata address): nothing was written.
  WEBHOOK_URL_NOT_ALLOWED: { http: 422, grpc: Code.InvalidArgument, message: "The webhook URL is not allowed.", outcome: "invalid" },
  // An OTP by SMS to a country the project's OTP settings do not allow: refused before anything was written or sent.
  SMS_COUNTRY_NOT_ALLOWED: { http: 422, grpc: Code.InvalidArgument, message: "The project does not send SMS to this country.", outcome: "invalid" },
  IDEMPOTENCY_KEY_PAYLOAD_MISMATCH: { http: 409, grpc: Code.FailedPrecondition, message: "The Idempotency-Key was used with a different request." },
  IDEMPOTENCY_KEY_IN_PROGRESS: { http: 409, grpc: Code.Aborted, message: "A request with this Idempotency-Key is still being processed.", outcome: "unresolved" },
  IDEMPOTENCY_OUTCOME_UNKNOWN: { http: 409, grpc: Code.Aborted, message: "The outcome of the request with this Idempotency-Key is being reconciled.", outcome: "unresolved" },
  PAYMENT_OUTCOME_UNKNOWN: { http: 409, grpc: Code.Aborted, message: "The outcome of this payment call is being reconciled; retry with the same Idempotency-Key later.", outcome: "unresolved" },
  // Nothing landed (each lost race wrote nothing), so the key is not used up: a retry may reuse it.
  CONCURRENT_MODIFICATION: { http: 409, grpc: Code.Aborted, message: "The resource kept changing while this request tried to change it; retry the request.", outcome: "refused" },
  REQUEST_TIMEOUT: { http: 408, grpc: Code.DeadlineExceeded, message: "The request did not arrive in time." },
  PAYLOAD_TOO_LARGE: { http: 413, grpc: Code.InvalidArgument, message: "The request body is too large." },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, grpc: Code.InvalidArgument, message: "The request body must be application/json." },
  RATE_LIMITED: { http: 429, grpc: Code.ResourceExhausted, message: "Too many requests.", outcome: "refused" },
  // SMS codes to a number prefix whose codes go unverified (SMS pumping's signature) are refused for a cool-down.
  SUSPICIOUS_TRAFFIC: { http: 429, grpc: Code.ResourceExhausted, message: "Traffic to these numbers looks suspicious; SMS codes to them are paused.", outcome: "refused" },
  HEADERS_TOO_LARGE: { http: 431, grpc: Code.InvalidArgument, message: "The request's headers are too large." },
  INTERNAL_ERROR: { http: 500, grpc: Code.Internal, message: "Something went wrong on our side." },
  OTP_DELIVERY_FAILED: { http: 502, grpc: Code.FailedPrecondition, message: "The code could not be delivered to the recipient.", outcome: "decided" },
  NOT_IMPLEMENTED: { http: 501, grpc: Code.Unimplemented, message: "This operation is not available yet." },
  SERVICE_UNAVAILABLE: { http: 503, grpc: Code.Unavailable, message: "The service is temporarily unavailable." },
  // Thrown only where the provider certainly did nothing (a 429, a refused key, no connection, a read that kept failing), so the key is not used up.
  PROVIDER_UNAVAILABLE: { http: 503, grpc: Code.Unavailable, message: "The payment provider is not available; try again.", outcome: "refused" },
  // The store is up and reads go on, but its disk refuses writes (full, read-only); it recovers by itself.
  STORE_UNAVAILABLE: { http: 503, grpc: Code.Unavailable, message: "The store cannot accept writes right now; retry later with the same Idempotency-Key." },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}

/** What an answer with this code says about the outcome of a mutation (see ErrorOutcome). */
export function errorOutcome(code: ErrorCode): ErrorOutcome {
  const entry: ErrorEntry = errorCatalogue[code];
  return entry.outcome ?? (entry.http < 500 ? "decided" : "unresolved");
}

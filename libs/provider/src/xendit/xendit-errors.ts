import { AppError } from "@bayad/kit";
import { ProviderNoAnswerError } from "../port.js";
import { keyHint, providerUnavailable } from "../provider-errors.js";

/** An answer Xendit gave with an error status, as an HTTP client hands it over. */
export interface XenditErrorAnswer {
  status: number;
  /** The parsed JSON body, or undefined when it was not JSON (a proxy's HTML page). */
  body: unknown;
  /** Response headers by lower-case name, as undici gives them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * What an error answer says Xendit did, the only thing callers decide by:
 * - `rejected`, `not_found`, `duplicate`: Xendit refused the request and made nothing by it
 *   (`duplicate`: something with that identity already exists, which reconciliation reads back);
 * - `key_refused`, `rate_limited`, `unavailable`: nothing was made and another attempt (later,
 *   with a fixed key, or at another account) may succeed;
 * - `no_answer`: a 5xx that does not say nothing was made, so a create's outcome is unknown.
 */
export type XenditFailure =
  | { kind: "rejected" | "not_found" | "duplicate"; status: number; errorCode: string }
  | { kind: "key_refused" }
  | { kind: "rate_limited"; errorCode: string; retryAfterSeconds?: number }
  | { kind: "unavailable"; errorCode: string }
  | { kind: "no_answer"; status: number };

// Xendit's own word that the channel or issuer refused before a payment began [O xendit.md §1].
const UNAVAILABLE_CODES = new Set(["CHANNEL_UNAVAILABLE", "ISSUER_UNAVAILABLE"]);
// A 400 per channel throttle [O]: refused before anything began, as a 429 is.
const CHANNEL_RATE_LIMITED = "PAYMENT_REQUEST_RATE_LIMITED";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** Xendit's `error_code`, or a stand-in naming the status when the body is not Xendit's envelope. */
export function xenditErrorCode(status: number, body: unknown): string {
  return (isObject(body) ? textOf(body.error_code) : undefined) ?? `HTTP_${status}`;
}

/** Seconds from `Rate-Limit-Reset` [O apidocs/rate-limits: seconds], when it holds a number of them. */
function resetSeconds(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/**
 * Reads an error answer. 409 is matched by its status alone: the v3 spec's duplicate schema
 * names `DATA_NOT_FOUND` (a spec bug [O xendit.md §1]), so the code would mislead. A 503 is
 * "nothing made" only with CHANNEL_UNAVAILABLE or ISSUER_UNAVAILABLE; any other 5xx (and an
 * answer below 400, which is not an error Xendit gave) leaves it unknown.
 */
export function xenditFailureOf(answer: XenditErrorAnswer): XenditFailure {
  const { status } = answer;
  const errorCode = xenditErrorCode(status, answer.body);
  if (status === 401) return { kind: "key_refused" };
  if (status === 429 || (status === 400 && errorCode === CHANNEL_RATE_LIMITED)) {
    const retryAfterSeconds = resetSeconds(answer.headers["rate-limit-reset"]);
    return { kind: "rate_limited", errorCode, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
  }
  if (status === 404) return { kind: "not_found", status, errorCode };
  if (status === 409) return { kind: "duplicate", status, errorCode };
  if (status >= 400 && status < 500) return { kind: "rejected", status, errorCode };
  if (status === 503 && UNAVAILABLE_CODES.has(errorCode)) return { kind: "unavailable", errorCode };
  return { kind: "no_answer", status };
}

// Whatever Xendit writes back, a key it echoes must not reach a log or a client.
const KEY_PATTERN = /\bxnd_[A-Za-z0-9_]+/g;
const MAX_DETAIL = 300;
const MAX_ITEMS = 5;

const withoutKeys = (text: string): string => text.replace(KEY_PATTERN, (key) => keyHint(key)).slice(0, MAX_DETAIL);

/**
 * The details of a refusal: Xendit's message with its code, then the legacy `errors[]` entries
 * (strings, or objects with a message) [O]. Told to the caller as PayMongo's refusals are
 * (PROVIDER_REJECTED carries what the provider said), with any key cut to its last four
 * characters and each text cut short.
 */
export function xenditErrorDetails(status: number, body: unknown): string[] {
  const errorCode = xenditErrorCode(status, body);
  if (!isObject(body)) return [`request: Xendit answered HTTP ${status} without its error envelope`];
  const details = [`request: ${withoutKeys(textOf(body.message) ?? "no message given")} (${errorCode})`];
  const items = Array.isArray(body.errors) ? body.errors.slice(0, MAX_ITEMS) : [];
  for (const item of items) {
    const text = textOf(item) ?? (isObject(item) ? textOf(item.message) : undefined);
    const field = isObject(item) ? (textOf(item.path) ?? textOf(item.field)) : undefined;
    if (text !== undefined) details.push(`${field !== undefined ? withoutKeys(field) : "request"}: ${withoutKeys(text)}`);
  }
  return details;
}

/**
 * Xendit answered with a 4xx of its own (but 401 and 429): PROVIDER_REJECTED, as PayMongo's
 * refusals are. The status, Xendit's code and what the answer says it did stay on the error for
 * callers that decide by them (a 404 or 409 during reconciliation, a 403 CHANNEL_NOT_ACTIVATED
 * for failover); across a service boundary only code, message and details travel.
 */
export class XenditRejectedError extends AppError {
  readonly providerStatus: number;
  readonly errorCode: string;
  readonly failure: "rejected" | "not_found" | "duplicate";

  constructor(operation: string, answer: XenditErrorAnswer, failure: "rejected" | "not_found" | "duplicate") {
    super("PROVIDER_REJECTED", `The payment provider refused the request (${operation}).`, { details: xenditErrorDetails(answer.status, answer.body) });
    this.providerStatus = answer.status;
    this.errorCode = xenditErrorCode(answer.status, answer.body);
    this.failure = failure;
  }
}

/**
 * Xendit answered 401: it refused the account's key. PROVIDER_UNAVAILABLE, as for PayMongo: the
 * account needs fixing and nothing happened. Only the key's last four characters are named.
 */
export class XenditKeyRefusedError extends AppError {
  readonly keyHint: string;

  constructor(hint: string, operation: string) {
    super("PROVIDER_UNAVAILABLE", `Xendit refused the account's secret key (${hint}) for ${operation}.`);
    this.keyHint = hint;
  }
}

/**
 * The error to throw for an error answer to `operation`, made with the key `secretKey`. A
 * `no_answer` is ProviderNoAnswerError: for a create, reconciliation must find out whether it
 * happened; a read may instead be sent again before it comes to this. Xendit's message goes to
 * a refusal's details only; unavailable and rate-limited errors say nothing Xendit wrote.
 */
export function xenditErrorOf(answer: XenditErrorAnswer, operation: string, secretKey: string): Error {
  const failure = xenditFailureOf(answer);
  switch (failure.kind) {
    case "rejected":
    case "not_found":
    case "duplicate":
      return new XenditRejectedError(operation, answer, failure.kind);
    case "key_refused":
      return new XenditKeyRefusedError(keyHint(secretKey), operation);
    case "rate_limited":
      return providerUnavailable(`Xendit is limiting the rate of requests (${operation}).`, failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {});
    case "unavailable":
      return providerUnavailable(`Xendit's payment channel is unavailable (${operation}, ${failure.errorCode}).`);
    case "no_answer":
      return new ProviderNoAnswerError(operation);
  }
}

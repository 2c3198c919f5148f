import { createHash } from "node:crypto";
import { Agent, request } from "undici";
import { activeSpan, backoffDelay, pause, type BackoffSettings } from "@bayad/kit";
import { ProviderNoAnswerError } from "../port.js";
import { keyHint, providerUnavailable } from "../provider-errors.js";
import { PaymongoKeyRefusedError, PaymongoRejectedError, paymongoErrorItems } from "./paymongo-errors.js";
import { createPaymongoRateLimit, PAYMONGO_REQUESTS_PER_SECOND } from "./paymongo-rate-limit.js";
import { withCallSpans } from "../provider-call-spans.js";
import { responseJson } from "../response-json.js";
import { mayHaveBeenSent } from "../transport-errors.js";

export const PAYMONGO_API_BASE_DEFAULT = "https://api.paymongo.com";

export interface PaymongoHttpOptions {
  apiBase: string;
  /** How long establishing a connection may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long PayMongo may take to send the response's headers, and then each part of its body. Default 15 s. */
  responseTimeoutMs?: number;
  /** How many times a read (GET) is sent again after a network error, a 5xx or a 429. Default 3. */
  readRetries?: number;
  /** The backoff between read attempts (kit's jittered exponential schedule). */
  readBackoff?: BackoffSettings;
  /** How many times a create carrying an Idempotency-Key is sent again after a lost answer, a 5xx, a 429 or a 409 in progress. Default 3. */
  writeRetries?: number;
  /** The backoff between those attempts. */
  writeBackoff?: BackoffSettings;
  /** Requests per second each key may send (PayMongo's limit: 100). */
  requestsPerSecond?: number;
}

/** A JSON:API document PayMongo answered with: `data` is a resource or, for lists, an array. */
export interface PaymongoDocument {
  data: unknown;
  has_more?: boolean;
}

export interface PaymongoCall {
  method: "GET" | "POST";
  /** From the API root, e.g. `/v1/refunds`. */
  path: string;
  query?: Record<string, string>;
  /** A POST's `data.attributes`; omitted for actions without a body (enable, expire). */
  attributes?: Record<string, unknown>;
  /** Names the call in errors and logs, e.g. `createRefund`. */
  operation: string;
  /** A POST that may be sent again as a read may (enabling a webhook): retried like a GET. */
  idempotent?: boolean;
  /**
   * PayMongo's `Idempotency-Key` for a create (see paymongoIdempotencyKey): PayMongo replays the
   * first answer to it for 24 h, so the create may be sent again after a lost answer.
   */
  idempotencyKey?: string;
}

export interface PaymongoHttp {
  send(secretKey: string, call: PaymongoCall): Promise<PaymongoDocument>;
  close(): Promise<void>;
}

const DEFAULT_READ_BACKOFF: BackoffSettings = { initialDelayMs: 200, maxDelayMs: 3_000 };
const DEFAULT_WRITE_BACKOFF: BackoffSettings = { initialDelayMs: 250, maxDelayMs: 3_000 };
// PayMongo's answer to a second request with a key whose first is still running [O for money
// movement, UNCONF for payments]: nothing was stored for it, so it is sent again after a pause.
const IN_PROGRESS_CODE = "idempotency_in_progress";
// A Retry-After longer than this is not sat out by a read that a payer may be waiting on.
const MAX_RETRY_AFTER_MS = 10_000;

/** Seconds from a Retry-After header (delta seconds or an HTTP date), if it holds one. */
function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

type Answer = { kind: "answer"; status: number; body: unknown; retryAfter?: number } | { kind: "no-answer"; sent: boolean; cause: unknown };

/**
 * PayMongo's HTTP transport: one keep-alive undici Agent, Basic auth with the key of each call,
 * JSON:API in and out, each key kept under PayMongo's 100 requests a second, and the error
 * mapping every PayMongo call shares.
 *
 * Reads are retried (network errors, 5xx, 429) with jittered exponential backoff, honouring
 * Retry-After. A create that carries an Idempotency-Key is retried the same way, and after a 409
 * `idempotency_in_progress`, because PayMongo replays its first answer to the key: a retry after
 * a lost answer gets the object the first attempt made. A 401 is never sent again (PayMongo
 * blocks keys that keep failing). When the attempts run out and one of them may have reached
 * PayMongo (a timeout, a reset, a 5xx but 503, an unreadable 200), the call throws ProviderNoAnswerError
 * and reconciliation settles it by the key or, past PayMongo's 24 h, the metadata Bayad put on
 * the object. A create without a key is sent once and throws ProviderNoAnswerError at once.
 * When PayMongo certainly did not act (no connection, a 429, a 503, a refused key) the call is
 * PROVIDER_UNAVAILABLE. Its other 4xx (a key reused with other parameters included) are
 * PaymongoRejectedError (PROVIDER_REJECTED).
 *
 * The key travels only in the Authorization header; errors name it by its last four characters.
 */
export function createPaymongoHttp(options: PaymongoHttpOptions): PaymongoHttp {
  const apiBase = options.apiBase.replace(/\/+$/, "");
  const responseTimeoutMs = options.responseTimeoutMs ?? 15_000;
  const readRetries = options.readRetries ?? 3;
  const readBackoff = options.readBackoff ?? DEFAULT_READ_BACKOFF;
  const writeRetries = options.writeRetries ?? 3;
  const writeBackoff = options.writeBackoff ?? DEFAULT_WRITE_BACKOFF;
  const rateLimit = createPaymongoRateLimit(options.requestsPerSecond ?? PAYMONGO_REQUESTS_PER_SECOND);
  // The limiter tells keys apart by a digest, so it holds no key of its own.
  const keyIdOf = (secretKey: string) => createHash("sha256").update(secretKey).digest("hex");
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    headersTimeout: responseTimeoutMs,
    bodyTimeout: responseTimeoutMs,
    // undici's default idle keep-alive (4 s, or less when the server says so) is kept: a socket
    // the server closed while idle would fail a create after it was written, an unknown outcome.
  });

  const sendOnce = async (secretKey: string, call: PaymongoCall): Promise<Answer> => {
    const url = new URL(`${apiBase}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    const hasBody = call.method === "POST" && call.attributes !== undefined;
    const keyId = keyIdOf(secretKey);
    await rateLimit.take(keyId);
    try {
      const response = await request(url, {
        dispatcher: agent,
        method: call.method,
        headers: {
          authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}`,
          accept: "application/json",
          ...(hasBody ? { "content-type": "application/json" } : {}),
          ...(call.idempotencyKey !== undefined ? { "idempotency-key": call.idempotencyKey } : {}),
        },
        body: hasBody ? JSON.stringify({ data: { attributes: call.attributes } }) : undefined,
      });
      activeSpan()?.setAttribute("http.response.status_code", response.statusCode);
      const body = await responseJson(response.body);
      const retryAfter = retryAfterSeconds(response.headers["retry-after"]);
      // PayMongo documents no Retry-After: without one, the key rests for the rest of its second.
      if (response.statusCode === 429) rateLimit.holdFor(keyId, Math.min((retryAfter ?? 1) * 1000, MAX_RETRY_AFTER_MS));
      return { kind: "answer", status: response.statusCode, body, retryAfter };
    } catch (error) {
      return { kind: "no-answer", sent: mayHaveBeenSent(error), cause: error };
    }
  };

  const unreachable = (call: PaymongoCall, cause: unknown) =>
    providerUnavailable(`PayMongo could not be reached (${call.operation}).`, { cause });

  const rejected = (secretKey: string, call: PaymongoCall, status: number, body: unknown): Error => {
    if (status === 401) return new PaymongoKeyRefusedError(keyHint(secretKey), call.operation);
    return new PaymongoRejectedError(call.operation, status, paymongoErrorItems(status, body));
  };

  const hasData = (body: unknown): body is PaymongoDocument => typeof body === "object" && body !== null && "data" in body;

  const read = async (secretKey: string, call: PaymongoCall): Promise<PaymongoDocument> => {
    for (let failures = 0; ; failures++) {
      const answer = await sendOnce(secretKey, call);
      const retryable =
        answer.kind === "no-answer" ||
        answer.status === 429 ||
        answer.status >= 500 ||
        (answer.status >= 200 && answer.status < 300 && !hasData(answer.body));
      if (!retryable) {
        if (answer.status >= 200 && answer.status < 300) return answer.body as PaymongoDocument;
        throw rejected(secretKey, call, answer.status, answer.body);
      }
      if (failures >= readRetries) {
        if (answer.kind === "no-answer") throw unreachable(call, answer.cause);
        if (answer.status === 429) {
          throw providerUnavailable(`PayMongo is limiting the rate of requests (${call.operation}).`, { retryAfterSeconds: answer.retryAfter });
        }
        throw providerUnavailable(`PayMongo answered ${call.operation} with HTTP ${answer.status}.`);
      }
      const retryAfterMs = answer.kind === "answer" && answer.retryAfter !== undefined ? answer.retryAfter * 1000 : undefined;
      await pause(retryAfterMs !== undefined ? Math.min(retryAfterMs, MAX_RETRY_AFTER_MS) : backoffDelay(readBackoff, failures + 1));
    }
  };

  const write = async (secretKey: string, call: PaymongoCall): Promise<PaymongoDocument> => {
    const answer = await sendOnce(secretKey, call);
    if (answer.kind === "no-answer") {
      if (!answer.sent) throw unreachable(call, answer.cause);
      throw new ProviderNoAnswerError(call.operation);
    }
    // PayMongo has not processed a rate-limited request: nothing to reconcile, try later.
    if (answer.status === 429) {
      throw providerUnavailable(`PayMongo is limiting the rate of requests (${call.operation}).`, { retryAfterSeconds: answer.retryAfter });
    }
    // 503: PayMongo did not take the request up (unavailable), so it made nothing. Another 5xx,
    // or a 200 whose body cannot be read, may have made the object: outcome unknown.
    if (answer.status === 503) throw providerUnavailable(`PayMongo answered ${call.operation} with HTTP 503.`, { retryAfterSeconds: answer.retryAfter });
    if (answer.status >= 500) throw new ProviderNoAnswerError(call.operation);
    if (answer.status >= 200 && answer.status < 300) {
      if (!hasData(answer.body)) throw new ProviderNoAnswerError(call.operation);
      return answer.body;
    }
    throw rejected(secretKey, call, answer.status, answer.body);
  };

  const isInProgress = (answer: Answer) =>
    answer.kind === "answer" && answer.status === 409 && paymongoErrorItems(409, answer.body).some((item) => item.code === IN_PROGRESS_CODE);

  /**
   * A create with an Idempotency-Key, sent until PayMongo answers it. Whether PayMongo may have
   * acted is kept across attempts: once any attempt may have reached it, running out of attempts
   * is ProviderNoAnswerError, never "did nothing".
   */
  const keyedWrite = async (secretKey: string, call: PaymongoCall): Promise<PaymongoDocument> => {
    let mayHaveActed = false;
    for (let failures = 0; ; failures++) {
      const answer = await sendOnce(secretKey, call);
      if (answer.kind === "no-answer") {
        mayHaveActed ||= answer.sent;
      } else if (answer.status >= 200 && answer.status < 300) {
        if (hasData(answer.body)) return answer.body;
        mayHaveActed = true;
      } else if ((answer.status >= 500 && answer.status !== 503) || isInProgress(answer)) {
        // In progress: the first attempt with this key is being processed right now. (A 503 is
        // PayMongo not taking the request up: it adds no doubt, and an earlier attempt that did
        // make the object would have been replayed to this key instead.)
        mayHaveActed = true;
      } else if (answer.status !== 429 && answer.status !== 503) {
        throw rejected(secretKey, call, answer.status, answer.body);
      }
      const retryAfterMs = answer.kind === "answer" && answer.retryAfter !== undefined ? answer.retryAfter * 1000 : undefined;
      const outOfTries = failures >= writeRetries || (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS);
      if (outOfTries) {
        if (mayHaveActed) throw new ProviderNoAnswerError(call.operation);
        if (answer.kind === "no-answer") throw unreachable(call, answer.cause);
        if (answer.status === 503) throw providerUnavailable(`PayMongo answered ${call.operation} with HTTP 503.`, { retryAfterSeconds: answer.retryAfter });
        throw providerUnavailable(`PayMongo is limiting the rate of requests (${call.operation}).`, { retryAfterSeconds: answer.retryAfter });
      }
      await pause(retryAfterMs ?? backoffDelay(writeBackoff, failures + 1));
    }
  };

  const send = (secretKey: string, call: PaymongoCall) => {
    if (call.method === "GET" || call.idempotent) return read(secretKey, call);
    return call.idempotencyKey !== undefined ? keyedWrite(secretKey, call) : write(secretKey, call);
  };
  return {
    send: withCallSpans({ id: "paymongo", name: "PayMongo" }, apiBase, send),
    close: () => agent.close(),
  };
}

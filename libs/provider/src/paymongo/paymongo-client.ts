import { createPaymongoHttp, type PaymongoDocument } from "./paymongo-http.js";
import { keyHint } from "../provider-errors.js";

export interface PaymongoClientOptions {
  /** PayMongo's API root without `/v1` (PAYMONGO_API_BASE; the simulator's URL in tests). */
  apiBase: string;
  /** The account's `sk_test_…` or `sk_live_…` key. Never logged; errors show its last four characters. */
  secretKey: string;
  /** Default 5 s. */
  connectTimeoutMs?: number;
  /** How long PayMongo may take to send the headers, and then each part of the body. Default 15 s. */
  responseTimeoutMs?: number;
  /** How many times a read is sent again after a network error, a 5xx or a 429. Default 3. */
  readRetries?: number;
  /** How many times a create with an Idempotency-Key is sent again after a lost answer. Default 3. */
  writeRetries?: number;
  /** Requests per second this key may send. Default PayMongo's 100. */
  requestsPerSecond?: number;
}

/** One PayMongo account's API: its key bound to a keep-alive connection pool. */
export interface PaymongoClient {
  /** `…` and the key's last four characters: the only part of it that may be shown. */
  readonly keyHint: string;
  /** Whether the key is a live key (`sk_live_…`). */
  readonly livemode: boolean;
  /** A GET, retried on network errors, 5xx and 429. */
  get(path: string, operation: string, query?: Record<string, string>): Promise<PaymongoDocument>;
  /**
   * A create or an action. With `idempotencyKey` (PayMongo's Idempotency-Key, see
   * paymongoIdempotencyKey) it is sent again after a lost answer and PayMongo answers with the
   * object of the first attempt; without one it is sent once, never again (see createPaymongoHttp).
   */
  post(path: string, operation: string, attributes?: Record<string, unknown>, options?: { idempotencyKey?: string }): Promise<PaymongoDocument>;
  /** Closes the connection pool. */
  close(): Promise<void>;
}

export function createPaymongoClient(options: PaymongoClientOptions): PaymongoClient {
  const { secretKey, ...httpOptions } = options;
  const http = createPaymongoHttp(httpOptions);
  return {
    keyHint: keyHint(secretKey),
    livemode: secretKey.startsWith("sk_live_"),
    get: (path, operation, query) => http.send(secretKey, { method: "GET", path, operation, ...(query ? { query } : {}) }),
    post: (path, operation, attributes, postOptions) =>
      http.send(secretKey, {
        method: "POST",
        path,
        operation,
        ...(attributes ? { attributes } : {}),
        ...(postOptions?.idempotencyKey !== undefined ? { idempotencyKey: postOptions.idempotencyKey } : {}),
      }),
    close: () => http.close(),
  };
}

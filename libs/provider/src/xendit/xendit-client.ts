import { keyHint } from "../provider-errors.js";
import { createXenditHttp, type XenditObject } from "./xendit-http.js";

export interface XenditClientOptions {
  /** Xendit's API root (https://api.xendit.co; the simulator's URL in tests). */
  apiBase: string;
  /** The account's `xnd_development_…` or `xnd_production_…` key. Never logged; errors show its last four characters. */
  secretKey: string;
  /** Default 5 s. */
  connectTimeoutMs?: number;
  /** How long Xendit may take to send the headers, and then each part of the body. Default 15 s. */
  responseTimeoutMs?: number;
}

/** One Xendit account's API: its key bound to a keep-alive connection pool (see createXenditHttp). */
export interface XenditClient {
  /** `…` and the key's last four characters: the only part of it that may be shown. */
  readonly keyHint: string;
  /** A GET, sent once more after a lost answer or an unexplained 5xx. */
  get(path: string, operation: string): Promise<XenditObject>;
  /** A GET of a list answered as a bare JSON array (`GET /v2/invoices?external_id=…`), sent as `get` is. */
  list(path: string, operation: string): Promise<XenditObject[]>;
  /**
   * A create or an action, sent once. `idempotencyKey` only where Xendit honours the header
   * (POST /refunds [O xendit-node]): a reconciliation that sends the same refund again with it
   * gets the first refund back rather than a second.
   */
  post(path: string, operation: string, body: Record<string, unknown>, options?: { idempotencyKey?: string }): Promise<XenditObject>;
  close(): Promise<void>;
}

export function createXenditClient(options: XenditClientOptions): XenditClient {
  const { secretKey, ...httpOptions } = options;
  const http = createXenditHttp(httpOptions);
  return {
    keyHint: keyHint(secretKey),
    get: (path, operation) => http.send(secretKey, { method: "GET", path, operation }),
    list: (path, operation) => http.list(secretKey, { method: "GET", path, operation }),
    post: (path, operation, body, postOptions) =>
      http.send(secretKey, {
        method: "POST",
        path,
        operation,
        body,
        ...(postOptions?.idempotencyKey !== undefined ? { idempotencyKey: postOptions.idempotencyKey } : {}),
      }),
    close: () => http.close(),
  };
}

import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./gen/openapi.js";
import { errorFromResponse } from "./errors.js";
import { newIdempotencyKey } from "./idempotency-key.js";
import type { RetryOptions, RetrySettings } from "./retry-policy.js";
import { retryingFetch, type Fetch } from "./retrying-fetch.js";

/** What one call may set: its own Idempotency-Key, an abort signal, and retry settings over the client's. */
export interface CallOptions extends RetryOptions {
  /**
   * The Idempotency-Key of a POST, PATCH or DELETE (16 to 255 characters). Made for you when
   * absent; pass your own to make a retry of yours (after a restart, say) the same request.
   */
  idempotencyKey?: string;
  /** Aborts the call, its retries and its pauses. */
  signal?: AbortSignal;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: Fetch;
  headers: Record<string, string>;
  retry: RetrySettings;
}

/** The typed HTTP client of the document's paths (openapi-fetch), with the SDK's keys and retries. */
export class Transport {
  readonly api: Client<paths>;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.api = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    });
  }

  /** The per-call fetch of a GET: retried as the options say. */
  read(options: CallOptions = {}): { fetch: Fetch } {
    const { idempotencyKey: _unused, signal, ...retry } = options;
    return { fetch: retryingFetch(this.#options.fetch, { ...this.#options.retry, ...definedOnly(retry) }, signal) };
  }

  /** The per-call fetch of a GET whose body is a stream: retried until it answers, its body not bound by `timeoutMs`. */
  readStream(options: CallOptions = {}): { fetch: Fetch } {
    const { idempotencyKey: _unused, signal, ...retry } = options;
    return { fetch: retryingFetch(this.#options.fetch, { ...this.#options.retry, ...definedOnly(retry) }, signal, "untimed") };
  }

  /** The per-call fetch of a mutation and its Idempotency-Key header, the same on every attempt. */
  write(options: CallOptions = {}): { fetch: Fetch; header: { "Idempotency-Key": string } } {
    const key = options.idempotencyKey ?? newIdempotencyKey();
    return { ...this.read(options), header: { "Idempotency-Key": key } };
  }
}

/** The `data` of a success envelope; a BayadError for anything else. */
export async function unwrap<E extends { data: unknown }>(
  pending: Promise<{ data?: E; error?: unknown; response: Response }>,
): Promise<E["data"]> {
  const { data, error, response } = await pending;
  if (!response.ok || data === undefined) throw errorFromResponse(response, error);
  return data.data;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

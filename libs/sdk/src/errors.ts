/**
 * What went wrong with a call, as the gateway's error envelope says it (`error.code`, `message`,
 * `details`, and `meta.correlationId` or the `X-Correlation-Id` header), after the SDK's retries
 * gave up. A call that got no HTTP answer (connection refused or dropped, every attempt timed out)
 * is one too, with `status` 0 and the code `NETWORK_ERROR` or `TIMEOUT`, its `cause` the last failure.
 */
export class BayadError extends Error {
  override readonly name = "BayadError";
  /** The machine code: `VALIDATION_FAILED`, `RESOURCE_NOT_FOUND`, … (the table in docs/api/errors.md). */
  readonly code: string;
  /** The HTTP status, or 0 when no answer arrived. */
  readonly status: number;
  /** One string per violation, each naming the field (empty when the envelope has none). */
  readonly details: string[];
  /** The request's correlation id, to quote when asking what happened to it. */
  readonly correlationId: string | undefined;
  /** The envelope's structured `detail`, when it has one. */
  readonly detail: unknown;

  constructor(
    message: string,
    fields: { code: string; status: number; details?: string[]; correlationId?: string; detail?: unknown; cause?: unknown },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    this.status = fields.status;
    this.details = fields.details ?? [];
    this.correlationId = fields.correlationId;
    this.detail = fields.detail;
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown; detail?: unknown };
  meta?: { correlationId?: unknown };
}

/** The BayadError of a non-2xx answer, whatever its body (an envelope, other JSON, or text from a proxy). */
export function errorFromResponse(response: Response, body: unknown): BayadError {
  const envelope = (typeof body === "object" && body !== null ? body : {}) as ErrorBody;
  const error = envelope.error ?? {};
  const code = typeof error.code === "string" ? error.code : `HTTP_${response.status}`;
  const message =
    typeof error.message === "string" ? error.message : typeof body === "string" && body ? body.slice(0, 200) : `HTTP ${response.status}`;
  const details = Array.isArray(error.details) ? error.details.filter((d): d is string => typeof d === "string") : [];
  const fromMeta = envelope.meta?.correlationId;
  const correlationId = typeof fromMeta === "string" ? fromMeta : (response.headers.get("x-correlation-id") ?? undefined);
  return new BayadError(`${code}: ${message}`, { code, status: response.status, details, correlationId, detail: error.detail });
}

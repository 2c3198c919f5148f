import { AppError } from "@bayad/kit";
import { keyHint } from "../provider-errors.js";

/** One entry of PayMongo's `errors` array, read defensively. */
export interface PaymongoErrorItem {
  code: string;
  detail: string;
  /** `source.attribute`, else `source.pointer`, when PayMongo names what it refused. */
  field?: string;
}

/**
 * PayMongo answered a call with a 4xx of its own: AppError PROVIDER_REJECTED, whose `details`
 * say, one per provider error, `<attribute or pointer>: <detail> (<code>)`. The provider's status
 * and codes stay on the error for callers that decide by them (a 404 during reconciliation, a
 * card decline during attach); across a service boundary only code, message and details travel.
 */
export class PaymongoRejectedError extends AppError {
  readonly providerStatus: number;
  readonly providerErrors: readonly PaymongoErrorItem[];

  constructor(operation: string, providerStatus: number, providerErrors: readonly PaymongoErrorItem[]) {
    super("PROVIDER_REJECTED", `The payment provider refused the request (${operation}).`, {
      details: providerErrors.map((error) => `${error.field ?? "request"}: ${error.detail} (${error.code})`),
    });
    this.providerStatus = providerStatus;
    this.providerErrors = providerErrors;
  }

  /** Whether any of the provider's errors has one of these codes. */
  hasCode(...codes: string[]): boolean {
    return this.providerErrors.some((error) => codes.includes(error.code));
  }
}

/**
 * PayMongo answered 401: it refused the account's key (revoked, rolled, mistyped). During a
 * payment call that is PROVIDER_UNAVAILABLE (the account needs fixing, nothing happened); the
 * account setup turns it into VALIDATION_FAILED naming secretKey. Only the key's last four
 * characters are named.
 */
export class PaymongoKeyRefusedError extends AppError {
  readonly keyHint: string;

  constructor(hint: string, operation: string) {
    super("PROVIDER_UNAVAILABLE", `PayMongo refused the account's secret key (${hint}) for ${operation}.`);
    this.keyHint = hint;
  }
}

// Whatever PayMongo writes back, a key it echoes must not reach a log or a client.
const KEY_PATTERN = /\b(?:sk|pk|whsk)_[A-Za-z0-9_]+/g;

/** Text from PayMongo with any key in it cut down to its last four characters. */
export function withoutKeys(text: string): string {
  return text.replace(KEY_PATTERN, (key) => keyHint(key));
}

const textOf = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

/**
 * The `errors` array of a PayMongo error body. A body that is not PayMongo's shape (a proxy's
 * HTML page) still gives one item, so a rejection always has details.
 */
export function paymongoErrorItems(status: number, body: unknown): PaymongoErrorItem[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) {
    return [{ code: `http_${status}`, detail: "PayMongo answered without an errors array" }];
  }
  return errors.map((raw): PaymongoErrorItem => {
    const error = (raw ?? {}) as { code?: unknown; detail?: unknown; message?: unknown; source?: { attribute?: unknown; pointer?: unknown } };
    const field = textOf(error.source?.attribute) ?? textOf(error.source?.pointer);
    return {
      code: textOf(error.code) ?? "unknown",
      detail: withoutKeys(textOf(error.detail) ?? textOf(error.message) ?? "no detail given"),
      ...(field !== undefined ? { field: withoutKeys(field) } : {}),
    };
  });
}

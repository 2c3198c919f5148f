import { AppError } from "@bayad/kit";

/**
 * Errors every provider adapter raises alike, so PayMongo and Xendit answer a caller (and the
 * failover that will try the next account) with the same codes for the same situations.
 */

/** The only part of a secret key that may ever be shown: its last four characters. */
export function keyHint(secretKey: string): string {
  return `…${secretKey.slice(-4)}`;
}

/** 503 PROVIDER_UNAVAILABLE: the provider did nothing (see the catalogue). */
export function providerUnavailable(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}): AppError {
  const retryAfter = options.retryAfterSeconds;
  return new AppError("PROVIDER_UNAVAILABLE", message, {
    cause: options.cause,
    ...(retryAfter !== undefined && retryAfter > 0 ? { headers: { "Retry-After": String(Math.ceil(retryAfter)) } } : {}),
  });
}

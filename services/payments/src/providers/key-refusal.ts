import { PaymongoKeyRefusedError } from "@bayad/provider";

/**
 * The PayMongo 401 behind an error, if there is one: the payment adapter throws it as it is, the
 * account setup wraps it (as VALIDATION_FAILED naming secretKey, the 401 kept as its cause).
 * Anything else is answered as it was.
 */
export function keyRefusalOf(error: unknown): unknown {
  if (error instanceof PaymongoKeyRefusedError) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof PaymongoKeyRefusedError ? cause : error;
}

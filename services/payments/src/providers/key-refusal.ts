import { PaymongoKeyRefusedError, XenditKeyRefusedError } from "@bayad/provider";

const isRefusal = (error: unknown): error is PaymongoKeyRefusedError | XenditKeyRefusedError =>
  error instanceof PaymongoKeyRefusedError || error instanceof XenditKeyRefusedError;

/**
 * The provider's 401 behind an error (PayMongo's or Xendit's), if there is one: the payment
 * adapters throw it as it is, the account setups wrap it (as VALIDATION_FAILED naming secretKey,
 * the 401 kept as its cause). Anything else is answered as it was.
 */
export function keyRefusalOf(error: unknown): unknown {
  if (isRefusal(error)) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  return isRefusal(cause) ? cause : error;
}

/** Whether the provider refused the account's key (a 401), directly or behind a setup's refusal. */
export function isKeyRefused(error: unknown): boolean {
  return isRefusal(keyRefusalOf(error));
}

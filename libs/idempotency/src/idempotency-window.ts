import { envInt, type Env } from "@bayad/kit";

/** Which window and which unknown-outcome code apply: OTP generate and verify, or any other keyed operation. */
export type IdempotencyKind = "payment" | "otp";

/** The window of every payment operation (24 hours) and of OTP generate and verify (7 days). */
export const defaultIdempotencyWindowSeconds = { payment: 86_400, otp: 604_800 } as const;

/**
 * A key's window from the environment: PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (payments, billing,
 * links, webhooks) or OTP_IDEMPOTENCY_WINDOW_SECONDS. The gateway and the services read the same
 * variable through this one function, so both halves forget a key at the same time.
 */
export function readIdempotencyWindowMs(env: Env, kind: IdempotencyKind): number {
  const name = kind === "payment" ? "PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS" : "OTP_IDEMPOTENCY_WINDOW_SECONDS";
  return envInt(env, name, defaultIdempotencyWindowSeconds[kind], { min: 1, max: 31_536_000 }) * 1000;
}

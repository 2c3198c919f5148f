import { createHash, timingSafeEqual } from "node:crypto";

/** The header Xendit puts the account's webhook verification token in [O xendit.md §6]. */
export const XENDIT_CALLBACK_TOKEN_HEADER = "x-callback-token";

/**
 * Why a callback's token was refused, as a stable code (a metric label, a log field), named as
 * PayMongo's signature refusals are where they mean the same. For the operator only: the sender
 * hears one generic refusal whatever was wrong.
 */
export type XenditCallbackTokenRefusal = "missing_header" | "empty_header" | "repeated_header" | "no_secret" | "mismatch";

export type XenditCallbackTokenResult = { valid: true } | { valid: false; reason: XenditCallbackTokenRefusal };

export interface XenditCallbackTokenInput {
  /**
   * Every value the request carried for `x-callback-token`, as Node's `headersDistinct` gives
   * them, so a repeated header shows (`headers`, and Koa's `ctx.get`, join repeats with ", ",
   * which then can only fail as a mismatch). A lone string is taken as one value.
   */
  header: string | readonly string[] | undefined;
  /** The account's webhook verification token, opened from its sealed copy. */
  token: string;
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/**
 * Checks a Xendit callback's `x-callback-token` against the account's token. Xendit signs
 * nothing (no HMAC or timestamp is documented, xendit.md §6): the static token is all there is,
 * so it is compared in constant time, over SHA-256 digests of both sides so that the comparison
 * takes as long whatever the lengths, and a body that passes is still only a hint to read back.
 * A repeated header is refused rather than one of its values picked: which did the sender mean?
 * Neither the token nor the header ever appears in what this returns.
 */
export function verifyXenditCallbackToken(input: XenditCallbackTokenInput): XenditCallbackTokenResult {
  const values = typeof input.header === "string" ? [input.header] : (input.header ?? []);
  if (values.length === 0) return { valid: false, reason: "missing_header" };
  if (values.length > 1) return { valid: false, reason: "repeated_header" };
  const [given = ""] = values;
  if (given === "") return { valid: false, reason: "empty_header" };
  if (input.token === "") return { valid: false, reason: "no_secret" };
  return timingSafeEqual(digest(given), digest(input.token)) ? { valid: true } : { valid: false, reason: "mismatch" };
}

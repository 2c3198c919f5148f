import { createHmac, timingSafeEqual } from "node:crypto";

export interface PaymongoSignatureInput {
  /** The Paymongo-Signature header: `t=<unix>,te=<hex>,li=<hex>`. */
  header: string | undefined;
  /** The body exactly as it arrived: a re-serialised body does not verify. */
  rawBody: string | Buffer;
  /** The webhook's `whsk_…` secret. */
  secret: string;
  /** The mode of the account the webhook belongs to: `li` is checked for live, `te` for test. */
  livemode: boolean;
  nowSeconds?: number;
  toleranceSeconds?: number;
}

/**
 * Why a signature was refused, as a stable code (a metric label, a log field). It is for the
 * operator only: told to the sender, each would say what to fix next.
 */
export type PaymongoSignatureRefusal =
  | "missing_header"
  | "malformed_header"
  | "wrong_mode"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "mismatch"
  | "no_secret";

export type PaymongoSignatureResult = { valid: true; timestamp: number } | { valid: false; reason: PaymongoSignatureRefusal };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function fieldsOf(header: string): Map<string, string> | undefined {
  const fields = new Map<string, string>();
  for (const part of header.split(",")) {
    const separator = part.indexOf("=");
    if (separator <= 0) return undefined;
    const name = part.slice(0, separator).trim();
    // A repeated field is ambiguous: which one would PayMongo have meant?
    if (fields.has(name)) return undefined;
    fields.set(name, part.slice(separator + 1).trim());
  }
  return fields;
}

/**
 * Checks a PayMongo webhook's signature: the mode's field (`te` for test, `li` for live) must be
 * hex(HMAC-SHA256(secret, `${t}.${rawBody}`)) [O], compared in constant time, and `t` must be
 * within toleranceSeconds (default 300) of now. PayMongo's own SDK checks no timestamp and
 * compares with `!=`; this does both, so a captured delivery cannot be replayed later and timing
 * says nothing about a guess. A signature in the other mode's field never counts: a test-mode
 * event must not move a live account.
 */
export function verifyPaymongoSignature(input: PaymongoSignatureInput): PaymongoSignatureResult {
  if (input.header === undefined || input.header.trim() === "") return { valid: false, reason: "missing_header" };
  if (input.secret === "") return { valid: false, reason: "no_secret" };
  const fields = fieldsOf(input.header);
  if (!fields) return { valid: false, reason: "malformed_header" };
  const t = fields.get("t");
  if (t === undefined || !/^\d{1,12}$/.test(t)) return { valid: false, reason: "malformed_header" };
  // Only the account's mode's field counts: an empty one means the event was signed for the other mode.
  const given = fields.get(input.livemode ? "li" : "te") ?? "";
  if (given === "") return { valid: false, reason: "wrong_mode" };
  if (!HEX_SHA256.test(given)) return { valid: false, reason: "malformed_header" };

  const timestamp = Number(t);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? 300;
  if (timestamp < now - tolerance) return { valid: false, reason: "timestamp_too_old" };
  if (timestamp > now + tolerance) return { valid: false, reason: "timestamp_in_future" };

  const expected = createHmac("sha256", input.secret).update(`${t}.`).update(input.rawBody).digest();
  // Both are 32 bytes here (the hex was checked above), as timingSafeEqual requires.
  if (!timingSafeEqual(expected, Buffer.from(given, "hex"))) return { valid: false, reason: "mismatch" };
  return { valid: true, timestamp };
}

import { AppError } from "@bayad/kit";

export type OtpChannelName = "sms" | "email";

/**
 * One spelling per destination, so that `+639171234567`, `639171234567` and `09171234567` are
 * the same recipient for the per-recipient rate limit and the development outbox, and an
 * address in capitals is the same mailbox as in lower case.
 *
 * Phone numbers become `+<digits>` (E.164). A leading `0` is read as the Philippine trunk
 * prefix, because Bayad serves Philippine users: `09171234567` is `+639171234567`. Digits
 * without `+` or `0` are read as already carrying their country code.
 */
export function normalizeRecipient(channel: OtpChannelName, raw: string): string {
  return channel === "sms" ? normalizePhone(raw) : normalizeEmail(raw);
}

/** The key the development outbox files a message under, for a recipient of either channel. */
export function recipientLookupKey(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.includes("@")) return trimmed.toLowerCase();
  const phone = tryNormalizePhone(trimmed);
  return phone ?? trimmed;
}

function normalizePhone(raw: string): string {
  const phone = tryNormalizePhone(raw);
  if (!phone) {
    throw new AppError("VALIDATION_FAILED", "The recipient is not a phone number.", {
      details: ["recipient: must be a phone number of 7 to 15 digits with an optional leading +"],
    });
  }
  return phone;
}

function tryNormalizePhone(raw: string): string | null {
  // Spaces, dashes, dots and brackets are common in typed numbers and carry no meaning.
  const compact = raw.trim().replace(/[\s().-]/g, "");
  if (!/^\+?\d{7,15}$/.test(compact)) return null;
  if (compact.startsWith("+")) return compact;
  if (compact.startsWith("0")) return `+63${compact.slice(1)}`;
  return `+${compact}`;
}

function normalizeEmail(raw: string): string {
  const address = raw.trim().toLowerCase();
  // Deliberately loose: the gateway validates the format; this only refuses what no mail
  // server could deliver to, and anything that could smuggle a second header or recipient.
  if (!/^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/.test(address) || address.length > 320) {
    throw new AppError("VALIDATION_FAILED", "The recipient is not an e-mail address.", {
      details: ["recipient: must be an e-mail address"],
    });
  }
  return address;
}

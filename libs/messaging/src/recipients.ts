/**
 * A phone number as `+<digits>` (E.164), or null when it is not one. Spaces, dashes, dots and
 * brackets are common in typed numbers and carry no meaning. A leading `0` is read as the
 * Philippine trunk prefix, because Bayad serves Philippine users: `09171234567` is
 * `+639171234567`. Digits without `+` or `0` are read as already carrying their country code.
 */
export function normalizePhoneNumber(raw: string): string | null {
  const compact = raw.trim().replace(/[\s().-]/g, "");
  if (!/^\+?\d{7,15}$/.test(compact)) return null;
  if (compact.startsWith("+")) return compact;
  if (compact.startsWith("0")) return `+63${compact.slice(1)}`;
  return `+${compact}`;
}

/**
 * The key the development outbox files a message under, for a recipient of either channel: one
 * spelling per destination, so that `+639171234567`, `639171234567` and `09171234567` are the
 * same phone, and an address in capitals is the same mailbox as in lower case.
 */
export function recipientLookupKey(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.includes("@")) return trimmed.toLowerCase();
  return normalizePhoneNumber(trimmed) ?? trimmed;
}

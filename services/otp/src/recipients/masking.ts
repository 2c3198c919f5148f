import { countryCallingCode } from "./phone-number.js";
import type { OtpChannelName } from "./recipient.js";

/**
 * The masked destination (`target`) that responses, logs and the stored record carry.
 *
 * Our decision: the full number or address never appears in any response, log or event. Even
 * the generate response's `recipient` is this masked form: the caller already knows whom it
 * asked us to reach, and anything that echoes the full destination (logs of the caller, of
 * proxies, of the gateway's idempotency store) would spread it for no benefit.
 *
 * SMS: the country code and the last 4 digits, with a fixed run of 7 stars whatever the
 * number's length (so the mask does not tell the length either): `+63*******4567`.
 * E-mail: the first letter of the local part, `***@`, the domain: `j***@example.com`.
 *
 * Takes the normalized recipient (see normalizeRecipient).
 */
export function maskRecipient(channel: OtpChannelName, recipient: string): string {
  return channel === "sms" ? maskPhone(recipient) : maskEmail(recipient);
}

/**
 * A mask for a recipient that could not be read (a channel list's entry the rules refused as
 * no number or address): its last two characters if it is long enough to hide the rest, else
 * nothing of it. Never more of it than maskRecipient would show.
 */
export function maskUnreadable(channel: OtpChannelName, raw: string): string {
  if (channel === "email" && raw.includes("@")) return maskEmail(raw);
  const digits = raw.replace(/[^0-9]/g, "");
  return digits.length >= 7 ? `${HIDDEN}${digits.slice(-2)}` : HIDDEN;
}

const HIDDEN = "*******";

function maskPhone(phone: string): string {
  const digits = phone.replace(/^\+/, "");
  const countryCode = countryCallingCode(phone);
  const national = digits.slice(countryCode.length);
  // Short national numbers (7 digits is the shortest we accept) keep fewer digits visible, so
  // that most of the number stays hidden.
  const visible = national.length >= 8 ? 4 : 2;
  return `+${countryCode}${HIDDEN}${national.slice(-visible)}`;
}

function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  return `${local.slice(0, 1)}***@${domain}`;
}

import { AppError } from "@bayad/kit";
import type { ChannelName } from "@bayad/messaging";
import { parseSmsNumber } from "./phone-number.js";

export type OtpChannelName = ChannelName;

/**
 * One spelling per destination, so that `+639171234567`, `639171234567` and `09171234567` are
 * the same recipient for the per-recipient rate limit and the development outbox, and an
 * address in capitals is the same mailbox as in lower case. Phone numbers become E.164 (see
 * parseSmsNumber: only numbers that can receive SMS pass).
 */
export function normalizeRecipient(channel: OtpChannelName, raw: string): string {
  return readRecipient(channel, raw).recipient;
}

/** The normalized recipient and, for SMS, the country its number belongs to (the country permissions check it). */
export function readRecipient(channel: OtpChannelName, raw: string): { recipient: string; country?: string } {
  if (channel === "email") return { recipient: normalizeEmail(raw) };
  const phone = parseSmsNumber(raw);
  return { recipient: phone.e164, country: phone.country };
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

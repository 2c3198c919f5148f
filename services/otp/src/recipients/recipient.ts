import { AppError } from "@bayad/kit";
import { normalizePhoneNumber, type ChannelName } from "@bayad/messaging";

export type OtpChannelName = ChannelName;

/**
 * One spelling per destination, so that `+639171234567`, `639171234567` and `09171234567` are
 * the same recipient for the per-recipient rate limit and the development outbox, and an
 * address in capitals is the same mailbox as in lower case. Phone numbers become `+<digits>`
 * (E.164), as @bayad/messaging's normalizePhoneNumber reads them.
 */
export function normalizeRecipient(channel: OtpChannelName, raw: string): string {
  return channel === "sms" ? normalizePhone(raw) : normalizeEmail(raw);
}

function normalizePhone(raw: string): string {
  const phone = normalizePhoneNumber(raw);
  if (!phone) {
    throw new AppError("VALIDATION_FAILED", "The recipient is not a phone number.", {
      details: ["recipient: must be a phone number of 7 to 15 digits with an optional leading +"],
    });
  }
  return phone;
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

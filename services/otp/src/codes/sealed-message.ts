import { openSealed, sealText, type SealedValue, type SealingKeys } from "@bayad/kit";

/** What a resend needs and the record must not hold in clear: where to, and the code. */
export interface PendingMessage {
  recipient: string;
  code: string;
  /**
   * The entries of the request's channel list still to fall back to if this send fails, by
   * their index in the record's `channels`, with their normalised recipients. Absent: none.
   */
  next?: { index: number; recipient: string }[];
}

const SEAL_PURPOSE = "otp-pending-message";

/**
 * While a delivery's outcome is not settled the record keeps the message sealed (kit's
 * sealText under the OTP_HASH_SECRETS ring's newest key), so that a retry can resend the same
 * message after a crash or an uncertain send. The otpId is authenticated with it (a sealed
 * message cannot be moved to another record), and the field is removed as soon as the delivery
 * is settled (sent or failed). At rest the code is otherwise only an HMAC.
 */
export function sealMessage(keys: SealingKeys, otpId: string, message: PendingMessage): string {
  return sealText(keys, SEAL_PURPOSE, otpId, JSON.stringify(message));
}

/** Throws when no key of the ring sealed it, or the otpId differs from the one it was sealed with. */
export function openMessage(keys: SealingKeys, otpId: string, sealed: string): PendingMessage {
  return JSON.parse(openSealed(keys, SEAL_PURPOSE, otpId, sealed)) as PendingMessage;
}

/** The sealed message of a stored OTP, if it still has one, for a reseal. */
export function pendingMessageSealedValues(otp: { _id: string; sealedMessage?: string }): SealedValue[] {
  return otp.sealedMessage === undefined ? [] : [{ path: "sealedMessage", purpose: SEAL_PURPOSE, context: otp._id, sealed: otp.sealedMessage }];
}

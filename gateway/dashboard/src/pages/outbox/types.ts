/** A message the OTP service's development outbox kept instead of sending it. */
export interface OtpDevMessage {
  messageId: string;
  otpId: string;
  channel: "sms" | "email";
  recipient: string;
  body: string;
  sentAt: string;
  /** E-mail only. */
  subject?: string;
}

/** The code in a message's text ("Your Bayad code is 123456. …"), when there is one. */
export function codeIn(body: string): string | undefined {
  return /\b\d{4,10}\b/.exec(body)?.[0];
}

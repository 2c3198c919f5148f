import { humanize } from "../../format";
export type { OtpDevMessage } from "../../api/schemas";

/** The code in a message's text ("Your Bayad code is 123456. …"), when there is one. */
export function codeIn(body: string): string | undefined {
  return /\b\d{4,10}\b/.exec(body)?.[0];
}

const channelLabels: Record<string, string> = { sms: "SMS", email: "E-mail" };

/** "sms" → "SMS"; a channel the dashboard does not know yet, as the API names it. */
export function channelLabel(channel: string): string {
  return Object.hasOwn(channelLabels, channel) ? channelLabels[channel] : humanize(channel);
}

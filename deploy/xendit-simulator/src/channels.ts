import { toCentavos } from "./amounts.js";
import { XenditSimulatorError } from "./api-error.js";

/** How the payer is sent on: to a redirect page (e-wallets) or shown a QR string (QR Ph). */
export type ChannelKind = "redirect" | "qr";

export interface Channel {
  code: string;
  kind: ChannelKind;
  minCentavos: number;
  maxCentavos: number;
  /** How long a request waits for the payer before it expires. */
  expiryMs: number;
  refundable: boolean;
}

const MINUTE = 60_000;

/**
 * The PH channels the simulator serves, from the channel pages [O]: e-wallets ₱1–100,000 and
 * 15 min; QRPH ₱1–50,000 and no refunds. QRPH's default expiry is UNCONF: the simulator uses the
 * e-wallets' 15 min, the shorter of the two seen, so an adapter is never surprised by an early
 * expiry. ShopeePay refunds are UNCONF: allowed, like the other e-wallets.
 */
export const CHANNELS: ReadonlyMap<string, Channel> = new Map(
  [
    { code: "GCASH", kind: "redirect", minCentavos: 100, maxCentavos: 10_000_000, expiryMs: 15 * MINUTE, refundable: true },
    { code: "PAYMAYA", kind: "redirect", minCentavos: 100, maxCentavos: 10_000_000, expiryMs: 15 * MINUTE, refundable: true },
    { code: "GRABPAY", kind: "redirect", minCentavos: 100, maxCentavos: 10_000_000, expiryMs: 15 * MINUTE, refundable: true },
    { code: "SHOPEEPAY", kind: "redirect", minCentavos: 100, maxCentavos: 10_000_000, expiryMs: 15 * MINUTE, refundable: true },
    { code: "QRPH", kind: "qr", minCentavos: 100, maxCentavos: 5_000_000, expiryMs: 15 * MINUTE, refundable: false },
  ].map((channel): [string, Channel] => [channel.code, channel as Channel]),
);

/** The channel for a code, or 400 API_VALIDATION_ERROR naming the codes the simulator knows. */
export function channelOf(code: unknown): Channel {
  const channel = typeof code === "string" ? CHANNELS.get(code) : undefined;
  if (!channel) {
    throw new XenditSimulatorError(400, "API_VALIDATION_ERROR", `channel_code must be one of ${[...CHANNELS.keys()].join(", ")}.`);
  }
  return channel;
}

/**
 * Refuses an amount outside the channel's limits at create. Which code Xendit answers then is
 * UNCONF (a failure_code PAYMENT_AMOUNT_LIMITS_EXCEEDED exists [O]); refusing up front with a 400
 * is the conservative choice: nothing is made that the payer could never pay.
 */
export function checkChannelLimits(channel: Channel, pesos: number): void {
  const centavos = toCentavos(pesos);
  if (centavos < channel.minCentavos || centavos > channel.maxCentavos) {
    throw new XenditSimulatorError(
      400,
      "API_VALIDATION_ERROR",
      `request_amount must be between ${channel.minCentavos / 100} and ${channel.maxCentavos / 100} PHP for ${channel.code}.`,
    );
  }
}

import { AppError } from "@bayad/kit";
import type { IntentMethodOption, RedirectIntentMethod } from "../payment-intent-methods.js";
import type { PaymentMethodName } from "../payment-methods.js";

/**
 * The Xendit v3 channels this adapter serves, with what Xendit's channel pages publish about
 * each [O xendit.md §2, §4, §5]: amount limits, how the payer pays, and refunds. Online banking
 * (BPI_DIRECT_DEBIT, UBP_DIRECT_DEBIT) and cards are not served yet: their flows differ (an
 * `API_POST_REQUEST` action, card details) and the simulator does not serve them either.
 */
export const XENDIT_CHANNELS = ["GCASH", "PAYMAYA", "GRABPAY", "SHOPEEPAY", "QRPH"] as const;
export type XenditChannel = (typeof XENDIT_CHANNELS)[number];

export interface XenditChannelFacts {
  /** The channel as a payer knows it, for messages. */
  label: string;
  minMinor: number;
  maxMinor: number;
  /** The Bayad intent method paid through this channel by redirect; absent for QR Ph. */
  intentMethod?: RedirectIntentMethod;
  /** False: Xendit refunds none of its payments. */
  refundable: boolean;
  /** Days after payment within which Xendit refunds it, when published (ShopeePay's: UNCONF). */
  refundWindowDays?: number;
}

const E_WALLET_LIMITS = { minMinor: 1_00, maxMinor: 100_000_00 };

export const XENDIT_CHANNEL_FACTS: Readonly<Record<XenditChannel, XenditChannelFacts>> = {
  GCASH: { label: "GCash", ...E_WALLET_LIMITS, intentMethod: "gcash", refundable: true, refundWindowDays: 180 },
  PAYMAYA: { label: "Maya", ...E_WALLET_LIMITS, intentMethod: "maya", refundable: true, refundWindowDays: 365 },
  GRABPAY: { label: "GrabPay", ...E_WALLET_LIMITS, intentMethod: "grabpay", refundable: true, refundWindowDays: 365 },
  SHOPEEPAY: { label: "ShopeePay", ...E_WALLET_LIMITS, intentMethod: "shopeepay", refundable: true },
  QRPH: { label: "QR Ph", minMinor: 1_00, maxMinor: 50_000_00, refundable: false },
};

const isChannel = (value: string): value is XenditChannel => (XENDIT_CHANNELS as readonly string[]).includes(value);

/**
 * The channel a name stands for: a Xendit channel code in any case (`GCASH`, `qrph`), or a
 * Bayad intent method (`maya`). Undefined for anything this adapter does not serve.
 */
export function xenditChannelOf(name: string): XenditChannel | undefined {
  const upper = name.toUpperCase();
  if (isChannel(upper)) return upper;
  return XENDIT_CHANNELS.find((channel) => XENDIT_CHANNEL_FACTS[channel].intentMethod === name);
}

/**
 * A channel Xendit names on a payment (`payment_channel`, `channel_code`) in Bayad's names:
 * the served e-wallets by their intent method, QR Ph as `qrph`; anything else is unknown.
 */
export function xenditPaymentMethodOf(name: string | undefined): PaymentMethodName | undefined {
  const channel = name === undefined ? undefined : xenditChannelOf(name);
  if (channel === undefined) return undefined;
  return XENDIT_CHANNEL_FACTS[channel].intentMethod ?? "qrph";
}

/** The channels a Xendit account's stored `paymentMethodTypes` name; undefined when they name none (every channel served). */
export function xenditAccountChannels(paymentMethodTypes: readonly string[]): XenditChannel[] | undefined {
  const channels = paymentMethodTypes.map(xenditChannelOf).filter((channel): channel is XenditChannel => channel !== undefined);
  return channels.length > 0 ? channels : undefined;
}

/** The channel a payer's redirect intent method goes through, or PAYMENT_METHOD_NOT_OFFERED. */
export function xenditChannelOfIntent(option: IntentMethodOption, offered: readonly XenditChannel[]): XenditChannel {
  const channel = XENDIT_CHANNELS.find((code) => XENDIT_CHANNEL_FACTS[code].intentMethod === option.type);
  if (channel === undefined || !offered.includes(channel)) {
    throw new AppError("PAYMENT_METHOD_NOT_OFFERED", undefined, {
      details: [`paymentMethod.type: ${option.type} is not offered by this Xendit account (it offers ${offered.join(", ") || "no channel"})`],
    });
  }
  return channel;
}

/** The intent options the account's channels offer, in the order listed. */
export function xenditIntentMethodOptions(channels: readonly XenditChannel[]): IntentMethodOption[] {
  return channels.flatMap((channel) => {
    const type = XENDIT_CHANNEL_FACTS[channel].intentMethod;
    return type !== undefined ? [{ type }] : [];
  });
}

const pesos = (minor: number) => `₱${(minor / 100).toLocaleString("en-PH", { minimumFractionDigits: 2 })}`;

/** Why `channel` would not take `amountMinor`: empty when it would. */
export function xenditAmountProblems(channel: XenditChannel, amountMinor: number): string[] {
  const { label, minMinor, maxMinor } = XENDIT_CHANNEL_FACTS[channel];
  if (amountMinor >= minMinor && amountMinor <= maxMinor) return [];
  return [`amount.amountMinor: Xendit takes ${label} payments of ${pesos(minMinor)} to ${pesos(maxMinor)} (${minMinor}–${maxMinor} centavos)`];
}

const outOfRange = (details: string[]) => new AppError("AMOUNT_OUT_OF_RANGE", "Xendit does not accept this amount for this payment method.", { details });

/** Throws AMOUNT_OUT_OF_RANGE when `channel` would not take `amountMinor`; nothing is sent. */
export function assertXenditAmount(channel: XenditChannel, amountMinor: number): void {
  const problems = xenditAmountProblems(channel, amountMinor);
  if (problems.length > 0) throw outOfRange(problems);
}

/**
 * The channels of `channels` that take `amountMinor`, for a session's `allowed_payment_channels`:
 * the hosted page offers only those. AMOUNT_OUT_OF_RANGE, naming each limit, when none does.
 */
export function xenditChannelsAccepting(channels: readonly XenditChannel[], amountMinor: number): XenditChannel[] {
  const accepting = channels.filter((channel) => xenditAmountProblems(channel, amountMinor).length === 0);
  if (accepting.length === 0) throw outOfRange(channels.flatMap((channel) => xenditAmountProblems(channel, amountMinor)));
  return accepting;
}

import type { PaymentMethodName } from "../payment-methods.js";

/**
 * The sandbox's fee table: what test mode's built-in provider keeps of every payment it takes,
 * so fees and net can be tried before going live. The rates are illustrative, not any provider's
 * price list (docs/api/payments.md "Fees and net" lists them too): a percentage in basis points
 * of the amount, rounded half to even to a whole centavo, plus a fixed part, and at least
 * `minimumMinor`; never more than the amount itself.
 */
export interface SandboxFeeRate {
  basisPoints: number;
  fixedMinor: number;
  minimumMinor: number;
}

export const SANDBOX_FEES: Readonly<Record<PaymentMethodName, SandboxFeeRate>> = {
  card: { basisPoints: 350, fixedMinor: 15_00, minimumMinor: 0 },
  gcash: { basisPoints: 250, fixedMinor: 0, minimumMinor: 0 },
  maya: { basisPoints: 200, fixedMinor: 0, minimumMinor: 0 },
  grabpay: { basisPoints: 220, fixedMinor: 0, minimumMinor: 0 },
  shopeepay: { basisPoints: 200, fixedMinor: 0, minimumMinor: 0 },
  qrph: { basisPoints: 150, fixedMinor: 0, minimumMinor: 0 },
  online_banking: { basisPoints: 80, fixedMinor: 0, minimumMinor: 15_00 },
};

/** `numerator / 10_000` rounded half to even, in integers (amounts stay far below 2^53 / 10_000). */
function basisPointsOf(amountMinor: number, basisPoints: number): number {
  const numerator = amountMinor * basisPoints;
  const quotient = Math.floor(numerator / 10_000);
  const remainder = numerator - quotient * 10_000;
  if (remainder > 5_000 || (remainder === 5_000 && quotient % 2 === 1)) return quotient + 1;
  return quotient;
}

/** The sandbox's fee of a paid payment of `amountMinor` by `method`, in centavos. */
export function sandboxFeeMinor(amountMinor: number, method: PaymentMethodName): number {
  const rate = SANDBOX_FEES[method];
  const fee = Math.max(basisPointsOf(amountMinor, rate.basisPoints) + rate.fixedMinor, rate.minimumMinor);
  return Math.min(fee, amountMinor);
}

/**
 * Proration arithmetic. Pure: no clock, no store; integers only (BigInt where a product of
 * centavos and seconds could pass 2^53).
 *
 * The rule (docs/api/billing.md, "Changing plans"): the period [start, end) is measured in whole
 * seconds, `length = floor((end - start) / 1 s)`; the change counts from the start of the second
 * it falls in, `remaining = length - floor((at - start) / 1 s)` (1 … length). The unused part of the old price is credited and the
 * rest of the period charged on the new one, each line `amount × remaining / length` rounded
 * half-to-even to the centavo on its own; the change's total is the sum of the rounded lines.
 */

export interface ProrationInput {
  periodStart: Date;
  periodEnd: Date;
  /** The change's instant: within [periodStart, periodEnd). */
  at: Date;
  oldAmountMinor: number;
  newAmountMinor: number;
}

export interface Proration {
  remainingSeconds: number;
  periodSeconds: number;
  /** The unused part of the old price: ≤ 0. */
  creditMinor: number;
  /** The rest of the period on the new price: ≥ 0. */
  chargeMinor: number;
  /** creditMinor + chargeMinor. */
  totalMinor: number;
}

/** `numerator / denominator` rounded to the nearest integer, ties to the even one (denominator > 0). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError("the denominator must be positive");
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const quotient = n / denominator;
  const twiceRemainder = 2n * (n % denominator);
  const roundedUp = twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n);
  const magnitude = roundedUp ? quotient + 1n : quotient;
  return negative ? -magnitude : magnitude;
}

const SECOND_MS = 1000;

/** The credit and charge lines of a plan change at `at` (see the rule above). */
export function prorate(input: ProrationInput): Proration {
  const start = input.periodStart.getTime();
  const end = input.periodEnd.getTime();
  const at = input.at.getTime();
  if (!(start <= at && at < end)) throw new RangeError("the change must fall within the period");
  const periodSeconds = Math.floor((end - start) / SECOND_MS);
  const remainingSeconds = periodSeconds - Math.floor((at - start) / SECOND_MS);
  if (periodSeconds <= 0) throw new RangeError("the period must last at least a second");
  const share = (amountMinor: number) => Number(divideHalfEven(BigInt(amountMinor) * BigInt(remainingSeconds), BigInt(periodSeconds)));
  // `0 - x`, not `-x`: a zero credit is 0, never -0.
  const creditMinor = 0 - share(input.oldAmountMinor);
  const chargeMinor = share(input.newAmountMinor);
  return { remainingSeconds, periodSeconds, creditMinor, chargeMinor, totalMinor: creditMinor + chargeMinor };
}

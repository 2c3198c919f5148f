/** The only currency Bayad settles in. Amounts are integer centavos. */
export const CURRENCY = "PHP";

export interface Money {
  amountMinor: number;
  currency: typeof CURRENCY;
}

export function isValidAmountMinor(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

/** Decimal text of an amount in centavos, as the records feed carries it (refunds negative). */
export function amountToDecimalText(amountMinor: number, negative = false): string {
  return String(negative ? -amountMinor : amountMinor);
}

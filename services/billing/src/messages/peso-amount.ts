/**
 * An amount of integer centavos as customers read it, exactly: `₱1,234.50` (thousands grouped by
 * commas, always two centavo digits; `-₱5.00` below zero). No floating point is involved, so any
 * safe integer is written to the centavo.
 */
export function formatPesos(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError(`an amount must be a whole number of centavos, got ${amountMinor}`);
  const sign = amountMinor < 0 ? "-" : "";
  const digits = String(Math.abs(amountMinor)).padStart(3, "0");
  const pesos = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${sign}₱${pesos}.${digits.slice(-2)}`;
}

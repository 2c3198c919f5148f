import { validationError } from "./api-error.js";

/**
 * A peso amount as Xendit takes it: a JSON number in major units [O]. How many decimals PHP
 * accepts is UNCONF; the simulator takes at most two (centavos), the conservative reading, and
 * refuses more rather than rounding, so an adapter sending `10.005` learns at once.
 */
export function readPesos(value: unknown, field: string, { positive }: { positive: boolean }): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw validationError(`${field} must be a number.`);
  if (!/^\d+(\.\d{1,2})?$/.test(String(value))) {
    throw validationError(`${field} must be a non-negative amount with at most 2 decimal places.`);
  }
  if (positive && value <= 0) throw validationError(`${field} must be greater than 0.`);
  return value;
}

/** Exact centavos of an amount `readPesos` accepted, for sums and comparisons without float drift. */
export function toCentavos(pesos: number): number {
  return Math.round(pesos * 100);
}

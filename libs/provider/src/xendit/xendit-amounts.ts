import { AppError } from "@bayad/kit";

/**
 * Xendit writes amounts as JSON numbers in pesos (`request_amount: 1234.56`), Bayad keeps integer
 * centavos [O xendit.md §1]. Both directions go through decimal text, never through float
 * arithmetic on money: centavos become pesos by placing the decimal point in the digits, and
 * pesos become centavos by reading the digits back.
 *
 * A JSON number is a binary64 double at both ends. Below 2^46 pesos the doubles are closer
 * together than one centavo (2^-7 apart at most), so every two-decimal peso value has a double of
 * its own and that double prints back as the same text; from 2^46 pesos up they are 2^-6 apart,
 * and ₱70,368,744,177,664.01 and .02 become the same double. So amounts from that bound up are
 * refused both ways: to Xendit the text could not be exact, and from Xendit the centavos could
 * not be known.
 */
export const XENDIT_MAX_EXACT_MINOR = 2 ** 46 * 100 - 1;

const PESO_TEXT = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;

/**
 * The JSON number for an amount of `amountMinor` centavos, whose text (as JSON.stringify and
 * Number#toString write it) is what a person would write: 1 → 0.01, 10 → 0.1, 100 → 1,
 * 123456 → 1234.56. Refuses with AMOUNT_OUT_OF_RANGE (nothing is sent) an amount that is not a
 * whole, non-negative number of centavos or that no JSON number carries exactly.
 */
export function toXenditAmount(amountMinor: number): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw outOfRange(`amount: ${String(amountMinor)} is not a whole, non-negative number of centavos`);
  }
  if (amountMinor > XENDIT_MAX_EXACT_MINOR) {
    throw outOfRange(`amount: ${amountMinor} centavos is more than Xendit's JSON number can carry exactly (at most ${XENDIT_MAX_EXACT_MINOR})`);
  }
  const digits = String(amountMinor).padStart(3, "0");
  const centavos = digits.slice(-2).replace(/0+$/, "");
  return Number(centavos === "" ? digits.slice(0, -2) : `${digits.slice(0, -2)}.${centavos}`);
}

/** What an amount Xendit wrote comes to: centavos, or why it cannot be read as an exact amount. */
export type XenditAmountReading = { ok: true; amountMinor: number } | { ok: false; problem: string };

/**
 * Reads an amount Xendit wrote (a JSON number in pesos, or the same as a string, as the docs
 * mirror writes every scalar) as integer centavos. Anything that is not an exact, non-negative
 * amount of at most two decimals is refused rather than rounded: a third decimal, NaN, a sign,
 * an exponent (`1e2`), a value past XENDIT_MAX_EXACT_MINOR, whose centavos a double cannot hold.
 * A refusal says what was wrong, never the amount's surroundings.
 */
export function readXenditAmount(value: unknown): XenditAmountReading {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { ok: false, problem: "not a finite number" };
    // The shortest text that reads back as this double: below the bound, exactly what Xendit wrote.
    text = String(value);
  } else if (typeof value === "string") {
    text = value;
  } else {
    return { ok: false, problem: `a ${value === null ? "null" : typeof value}, not an amount` };
  }
  const match = PESO_TEXT.exec(text);
  if (!match) return { ok: false, problem: "not a non-negative peso amount with at most two decimals" };
  const [, pesos = "", centavos = ""] = match;
  const amountMinor = Number(`${pesos}${centavos.padEnd(2, "0")}`);
  if (amountMinor > XENDIT_MAX_EXACT_MINOR) return { ok: false, problem: "too large to be an exact amount" };
  return { ok: true, amountMinor };
}

function outOfRange(detail: string): AppError {
  return new AppError("AMOUNT_OUT_OF_RANGE", "Xendit cannot be sent this amount exactly.", { details: [detail] });
}

/**
 * An amount bound of the records search typed in pesos ("150", "-300.50", "1,500.00") as integer
 * centavos text, exactly: the decimal text is split and read as integers, never as a float, so
 * "0.29" is 29 centavos and not 28.999…. Negative bounds reach refunds (their amounts are negative).
 */
export function parseAmountBound(text: string): { minor: string } | { error: string } {
  const value = text.trim().replaceAll(",", "").replace(/^−/, "-");
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return { error: "Enter pesos like 150.00 or -300.50 (at most two decimals)." };
  const [, sign, whole, fraction = ""] = match;
  const magnitude = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"));
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) return { error: "The amount is too large." };
  return { minor: (sign && magnitude > 0n ? -magnitude : magnitude).toString() };
}


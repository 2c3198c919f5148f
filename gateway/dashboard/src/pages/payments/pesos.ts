/** Pesos typed by a person ("150", "150.5", "1,500.00") as centavos, or why not. */
export function parsePesos(text: string): { minor: number } | { error: string } {
  const value = text.trim().replaceAll(",", "");
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return { error: "Enter the amount in pesos, like 150.00 (at most two decimals)." };
  const [whole, fraction = ""] = value.split(".");
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"));
  if (minor <= 0n) return { error: "The amount must be more than ₱0.00." };
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { error: "The amount is too large." };
  return { minor: Number(minor) };
}

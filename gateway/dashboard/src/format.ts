/** How the dashboard writes money, times and statuses: one place, so every page agrees. */

import type { MessageLocale } from "./api/schemas";

const pesos = new Intl.NumberFormat("en-PH", { style: "currency", currency: "PHP", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Centavos (a number, or the decimal text the records feed uses) as pesos with centavos:
 * "₱1,234.50", "−₱100.00". Exact for any integer text (no floating point on large values).
 */
export function formatPesos(amountMinor: number | string | null | undefined): string {
  if (amountMinor === null || amountMinor === undefined || amountMinor === "") return "—";
  const text = typeof amountMinor === "number" ? Math.trunc(amountMinor).toString() : amountMinor;
  if (!/^-?\d+$/.test(text)) return "—";
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(3, "0");
  const whole = BigInt(digits.slice(0, -2));
  const centavos = digits.slice(-2);
  const formatted = pesos.format(0).replace("0.00", `${whole.toLocaleString("en-PH")}.${centavos}`);
  return negative ? `−${formatted}` : formatted;
}

/** Centavos as plain pesos text, for a spreadsheet or a form field: "-15000" → "-150.00"; empty when absent. */
export function pesosText(amountMinor: number | string | null | undefined): string {
  const text = typeof amountMinor === "number" ? Math.trunc(amountMinor).toString() : amountMinor;
  if (!text || !/^-?\d+$/.test(text)) return "";
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(3, "0");
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, "");
  return `${negative ? "-" : ""}${whole}.${digits.slice(-2)}`;
}

/**
 * Pesos typed by a person ("150", "150.5", "1,500.00") as centavos, exactly (no floating point),
 * or why not. More than ₱0.00 unless `allowZero` (a bound may be zero; a refund may not).
 */
export function parsePesos(text: string, { allowZero = false } = {}): { minor: number } | { error: string } {
  const value = text.trim().replaceAll(",", "");
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return { error: "Enter the amount in pesos, like 150.00 (at most two decimals)." };
  const [whole, fraction = ""] = value.split(".");
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0"));
  if (minor <= 0n && !allowZero) return { error: "The amount must be more than ₱0.00." };
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { error: "The amount is too large." };
  return { minor: Number(minor) };
}

/** The viewer's UTC offset at `date` as "GMT+08:00". */
export function formatOffset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? "+" : "−";
  const abs = Math.abs(minutes);
  return `GMT${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** An ISO time in the viewer's zone, offset shown: "2026-11-27 16:45:03 GMT+08:00". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${formatOffset(date)}`;
}

/** The viewer's local calendar day of an ISO time, "2026-11-27" (the overview's buckets). */
export function localDay(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "payment_intent" → "payment intent". */
export function humanize(value: string | null | undefined): string {
  return value ? value.replaceAll("_", " ") : "—";
}

/** The providers a payment may be made at, as the dashboard names them. */
export const providerLabels = { paymongo: "PayMongo", xendit: "Xendit", sandbox: "Sandbox" } as const;

/** "paymongo" → "PayMongo"; a provider the dashboard does not know yet, as the API names it. */
export function providerLabel(provider: string): string {
  return Object.hasOwn(providerLabels, provider) ? providerLabels[provider as keyof typeof providerLabels] : provider;
}

/** Bayad's payment method names as the dashboard shows them; an unknown one as the API names it. */
const methodLabels: Record<string, string> = {
  card: "Card",
  qrph: "QR Ph",
  gcash: "GCash",
  maya: "Maya",
  grabpay: "GrabPay",
  shopeepay: "ShopeePay",
  online_banking: "Online banking",
};

export function methodLabel(method: string): string {
  return Object.hasOwn(methodLabels, method) ? methodLabels[method] : humanize(method);
}

/** The languages customer messages are written in (`locale`), as the dashboard names them. */
export const localeLabels: Record<MessageLocale, string> = { en: "English", fil: "Filipino" };

/** "fil" → "Filipino"; a locale the dashboard does not know yet, as the API names it. */
export function localeLabel(locale: string): string {
  return Object.hasOwn(localeLabels, locale) ? localeLabels[locale as MessageLocale] : locale;
}

import type { TargetCheck } from "./targets.js";

/** How the report writes its figures, shared by its sections. */

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const signedMib = (bytes: number) => `${bytes >= 0 ? "+" : "−"}${mib(Math.abs(bytes))}`;
export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "—");
export const count = (value: number) => Math.round(value).toLocaleString("en-US");

/** A target with its verdict: ✔, ✘, or n/a when it cannot be judged. */
export function mark(check: TargetCheck): string {
  const verdict = check.met === undefined ? "n/a" : check.met ? "✔" : "✘";
  return `${check.text} ${verdict}`;
}

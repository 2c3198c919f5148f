import type { components } from "../gen/openapi.js";

/** A request's validated `amount` in the rpc's Money. */
export function moneyOf(amount: components["schemas"]["Money"]) {
  return { amountMinor: BigInt(amount.amountMinor), currency: amount.currency };
}

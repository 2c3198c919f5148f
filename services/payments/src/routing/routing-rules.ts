import type { ProviderRoute as ProviderRouteMessage } from "@bayad/proto";
import { AppError, CURRENCY } from "@bayad/kit";
import { REDIRECT_INTENT_METHODS } from "@bayad/provider";
import type { ProviderRoute } from "./provider-routing.js";

/**
 * The methods a route may name: `checkout` (hosted checkouts), `qrph` (QR Ph intents) and the
 * redirect intent methods, as capabilities' `paymentIntentMethods[].type` names them.
 */
export const ROUTABLE_METHODS: readonly string[] = ["checkout", "qrph", ...REDIRECT_INTENT_METHODS];

export const MAX_ROUTE_WEIGHT = 1000;

/**
 * Reads a put's routes, checked against the project's accounts in the environment: each account
 * one of them and named once, weights integers 0–1000 with one above 0, bounds in pesos' centavos
 * with min ≤ max, methods known. VALIDATION_FAILED with a detail naming `routes[i].field` per
 * problem; nothing is stored then.
 */
export function readRoutes(routes: readonly ProviderRouteMessage[], accountIds: ReadonlySet<string>, environment: string): ProviderRoute[] {
  const problems: string[] = [];
  if (routes.length === 0) problems.push("routes: at least one route is required");
  const seen = new Set<string>();
  const read = routes.map((route, index): ProviderRoute => {
    const at = `routes[${index}]`;
    if (route.providerAccountId === "") problems.push(`${at}.providerAccountId: is required`);
    else if (!accountIds.has(route.providerAccountId)) {
      problems.push(`${at}.providerAccountId: ${route.providerAccountId} is not a provider account of this project in ${environment} mode`);
    } else if (seen.has(route.providerAccountId)) problems.push(`${at}.providerAccountId: ${route.providerAccountId} is routed to twice`);
    seen.add(route.providerAccountId);
    if (!Number.isInteger(route.weight) || route.weight < 0 || route.weight > MAX_ROUTE_WEIGHT) {
      problems.push(`${at}.weight: must be an integer from 0 to ${MAX_ROUTE_WEIGHT}`);
    }
    route.methods.forEach((method, methodIndex) => {
      if (!ROUTABLE_METHODS.includes(method)) problems.push(`${at}.methods[${methodIndex}]: must be one of ${ROUTABLE_METHODS.join(", ")}`);
    });
    const bound = (field: "minAmount" | "maxAmount"): number | undefined => {
      const money = route[field];
      if (money === undefined) return undefined;
      if (money.currency !== CURRENCY) problems.push(`${at}.${field}.currency: must be ${CURRENCY}`);
      if (money.amountMinor < 0n || money.amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) problems.push(`${at}.${field}.amountMinor: must be 0 or more centavos`);
      return Number(money.amountMinor);
    };
    const minAmountMinor = bound("minAmount");
    const maxAmountMinor = bound("maxAmount");
    if (minAmountMinor !== undefined && maxAmountMinor !== undefined && minAmountMinor > maxAmountMinor) {
      problems.push(`${at}.maxAmount.amountMinor: must not be below minAmount`);
    }
    const methods = [...new Set(route.methods)];
    return {
      providerAccountId: route.providerAccountId,
      ...(methods.length > 0 ? { methods } : {}),
      ...(minAmountMinor !== undefined ? { minAmountMinor } : {}),
      ...(maxAmountMinor !== undefined ? { maxAmountMinor } : {}),
      weight: route.weight,
    };
  });
  if (routes.length > 0 && !routes.some((route) => route.weight > 0)) problems.push("routes: at least one route needs a weight above 0");
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  return read;
}

import { formatPesos, parsePesos, pesosText } from "../../format";
import type { ProviderRoute, RouteMethod } from "./types";

/**
 * The methods a route may name, as Bayad names them (services/payments/src/routing/routing-rules.ts,
 * ROUTABLE_METHODS; the contract's enum): a Record, so a method added to the contract is a type
 * error here until it has a label.
 */
export const routeMethodLabels: Record<RouteMethod, string> = {
  checkout: "Hosted checkout",
  qrph: "QR Ph",
  gcash: "GCash",
  maya: "Maya",
  grabpay: "GrabPay",
  shopeepay: "ShopeePay",
  online_banking: "Online banking",
};
export const routeMethods = Object.keys(routeMethodLabels) as RouteMethod[];

/** The most a route may weigh (the API's limit). */
export const maxRouteWeight = 1000;

/** "GCash, QR Ph", or "every method" when the route names none. */
export function methodsText(route: Pick<ProviderRoute, "methods">): string {
  const methods = route.methods ?? [];
  if (methods.length === 0) return "every method";
  return routeMethods.filter((method) => methods.includes(method)).map((method) => routeMethodLabels[method]).join(", ");
}

/** "₱100.00 – ₱50,000.00", "from ₱100.00", "up to ₱50,000.00", or "any amount". */
export function amountRangeText(route: Pick<ProviderRoute, "minAmount" | "maxAmount">): string {
  const min = route.minAmount ? formatPesos(route.minAmount.amountMinor) : undefined;
  const max = route.maxAmount ? formatPesos(route.maxAmount.amountMinor) : undefined;
  if (min && max) return `${min} – ${max}`;
  if (min) return `from ${min}`;
  if (max) return `up to ${max}`;
  return "any amount";
}

/**
 * A route's weight as its share of all the routes' weights, in per cent with at most one
 * decimal ("70%", "33.3%"); "—" when every weight is 0. Among the routes that match a payment
 * the share is of their weights only.
 */
export function shareText(weight: number, weights: readonly number[]): string {
  const total = weights.reduce((sum, each) => sum + each, 0);
  if (total <= 0) return "—";
  return `${Math.round((weight * 1000) / total) / 10}%`;
}

/** A route as the form edits it: the amounts and weight as typed. */
export interface RouteDraft {
  providerAccountId: string;
  methods: RouteMethod[];
  weight: string;
  minPesos: string;
  maxPesos: string;
}

export function routeDraft(route: ProviderRoute): RouteDraft {
  return {
    providerAccountId: route.providerAccountId,
    methods: [...(route.methods ?? [])],
    weight: String(route.weight),
    minPesos: route.minAmount ? pesosText(route.minAmount.amountMinor) : "",
    maxPesos: route.maxAmount ? pesosText(route.maxAmount.amountMinor) : "",
  };
}

/** What the form found wrong with a draft before sending it: the field and why. */
export type DraftProblems = Partial<Record<"weight" | "minAmount" | "maxAmount", string>>;

/**
 * A draft as the route the API takes (amounts in centavos, exactly), or what is wrong with it.
 * The rules across routes (one weight above 0, min ≤ max, the accounts) are the API's to check.
 */
export function routeFromDraft(draft: RouteDraft): { route: ProviderRoute } | { problems: DraftProblems } {
  const problems: DraftProblems = {};
  const weight = draft.weight.trim();
  if (!/^\d+$/.test(weight) || Number(weight) > maxRouteWeight) problems.weight = `Enter a whole number from 0 to ${maxRouteWeight}.`;
  const bound = (text: string, field: "minAmount" | "maxAmount") => {
    if (text.trim() === "") return undefined;
    const parsed = parsePesos(text, { allowZero: true });
    if ("error" in parsed) {
      problems[field] = parsed.error;
      return undefined;
    }
    return { amountMinor: parsed.minor, currency: "PHP" as const };
  };
  const minAmount = bound(draft.minPesos, "minAmount");
  const maxAmount = bound(draft.maxPesos, "maxAmount");
  if (Object.keys(problems).length > 0) return { problems };
  return {
    route: {
      providerAccountId: draft.providerAccountId,
      ...(draft.methods.length > 0 ? { methods: routeMethods.filter((method) => draft.methods.includes(method)) } : {}),
      ...(minAmount ? { minAmount } : {}),
      ...(maxAmount ? { maxAmount } : {}),
      weight: Number(weight),
    },
  };
}

/**
 * The API's details about the routes sent (`routes[1].weight: must be …`), by the account each
 * route named, so they stay with their route when the operator reorders; the others (`routes: …`)
 * under "".
 */
export function detailsByAccount(details: readonly string[], sent: readonly ProviderRoute[]): Map<string, string[]> {
  const byAccount = new Map<string, string[]>();
  for (const detail of details) {
    const index = /^routes\[(\d+)\]/.exec(detail)?.[1];
    const account = index === undefined ? "" : (sent[Number(index)]?.providerAccountId ?? "");
    byAccount.set(account, [...(byAccount.get(account) ?? []), detail]);
  }
  return byAccount;
}

import { createHash } from "node:crypto";
import { AppError, type Money } from "@bayad/kit";
import { offersIntentMethod, type PaymentProvider } from "@bayad/provider";
import type { ProviderRoute } from "./provider-routing.js";

/** A new payment about to be made at a provider: what routing decides by. */
export interface PaymentToRoute {
  /** Seeds the weighted pick (the resource's id): the same payment always picks the same account. */
  routingKey: string;
  flow: "checkout" | "payment_intent";
  /** Bayad's method name: `checkout`, `qrph`, or a redirect method (`gcash`…). */
  method: string;
  /** online_banking's bank. */
  bankCode?: string;
  amount: Money;
}

/** One of the project's accounts as routing sees it. */
export interface RoutingAccount {
  providerAccountId: string;
  /** `paymongo`, `xendit`. */
  providerName: string;
  /** Paused accounts (their key refused) are skipped. */
  paused: boolean;
  provider: PaymentProvider;
}

export interface RouteCandidate {
  providerAccountId: string;
  providerName: string;
  provider: PaymentProvider;
}

/** A number in [0, 1) from `key`, the same for the same key on every replica. */
export function routingFraction(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0) / 2 ** 32;
}

/** Why `provider` would not take `payment` (its published methods and amount limits), or undefined. */
function providerRefusal(provider: PaymentProvider, payment: PaymentToRoute): AppError | undefined {
  const redirect = payment.flow === "payment_intent" && payment.method !== "qrph";
  if (redirect && !offersIntentMethod(provider.paymentIntentMethods, { type: payment.method, ...(payment.bankCode ? { bankCode: payment.bankCode } : {}) })) {
    return new AppError("PAYMENT_METHOD_NOT_OFFERED");
  }
  try {
    provider.checkAmount?.({
      flow: payment.flow,
      amount: payment.amount,
      ...(payment.flow === "payment_intent" ? { paymentMethodType: payment.method } : {}),
      ...(payment.bankCode ? { bankCode: payment.bankCode } : {}),
    });
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/**
 * The accounts `payment` may be made at, in the order to ask them: among the routes whose rules
 * match (method, amount range) and whose account would take it (not paused, offers the method,
 * its amount limits allow), the first is picked by weight among those above 0, deterministically
 * from `routingKey`; the others follow in the routing's order (failover). None: the catalogue's
 * error for why — PAYMENT_METHOD_NOT_OFFERED, AMOUNT_OUT_OF_RANGE, or PROVIDER_NOT_CONFIGURED when
 * every routed account is paused or gone.
 */
export function routePayment(routes: readonly ProviderRoute[], accounts: readonly RoutingAccount[], payment: PaymentToRoute): RouteCandidate[] {
  const byId = new Map(accounts.map((account) => [account.providerAccountId, account]));
  const matching: { route: ProviderRoute; account: RoutingAccount }[] = [];
  let usable = 0;
  let amountRefusal: AppError | undefined;
  for (const route of routes) {
    const account = byId.get(route.providerAccountId);
    if (!account || account.paused) continue;
    usable += 1;
    if (route.methods !== undefined && route.methods.length > 0 && !route.methods.includes(payment.method)) continue;
    const amountMinor = payment.amount.amountMinor;
    if ((route.minAmountMinor !== undefined && amountMinor < route.minAmountMinor) || (route.maxAmountMinor !== undefined && amountMinor > route.maxAmountMinor)) {
      amountRefusal ??= new AppError("AMOUNT_OUT_OF_RANGE", "No provider account of this project takes this amount for this payment method.", {
        details: [`amount.amountMinor: ${amountMinor} is outside the amounts the project's routing sends to its accounts for ${payment.method}`],
      });
      continue;
    }
    const refusal = providerRefusal(account.provider, payment);
    if (refusal?.code === "AMOUNT_OUT_OF_RANGE") amountRefusal ??= refusal;
    if (refusal) continue;
    matching.push({ route, account });
  }
  if (matching.length === 0) {
    if (usable === 0) {
      throw new AppError("PROVIDER_NOT_CONFIGURED", "Every provider account this project's routing names in this mode is paused or removed.");
    }
    if (amountRefusal) throw amountRefusal;
    throw new AppError("PAYMENT_METHOD_NOT_OFFERED", `No provider account of this project takes ${payment.method} payments; see the capabilities.`, {
      details: [`${payment.flow === "checkout" ? "checkout" : "paymentMethod"}: ${payment.method} is not offered here`],
    });
  }
  const total = matching.reduce((sum, { route }) => sum + route.weight, 0);
  let first = 0;
  if (total > 0) {
    let point = routingFraction(payment.routingKey) * total;
    first = matching.findIndex(({ route }) => (point -= route.weight) < 0);
    if (first < 0) first = matching.findLastIndex(({ route }) => route.weight > 0);
  }
  const ordered = [matching[first], ...matching.filter((_, index) => index !== first)];
  return ordered.map(({ account }) => ({ providerAccountId: account.providerAccountId, providerName: account.providerName, provider: account.provider }));
}

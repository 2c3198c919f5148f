import type { Environment } from "@bayad/kit";
import type { RoutableAccount } from "../providers/account-providers.js";
import type { AccountBreakers } from "./account-breakers.js";
import { outcomeOf, type ProviderCallMetrics } from "./provider-call-metrics.js";
import { defaultRoutes, type EffectiveRouting } from "./provider-routing.js";
import type { ProviderRoutingRepository } from "./provider-routing-repository.js";
import { routePayment, type PaymentToRoute, type RouteCandidate, type RoutingAccount } from "./route-payment.js";

export interface PaymentRoutingDeps {
  repository: ProviderRoutingRepository;
  /** The project's accounts with their adapters, oldest first (AccountProviders). */
  accounts: { accountsOf(projectId: string, environment: Environment): Promise<RoutableAccount[]> };
  breakers: AccountBreakers;
  metrics: ProviderCallMetrics;
}

const routingAccountOf = ({ account, provider }: RoutableAccount): RoutingAccount => ({
  providerAccountId: account._id,
  providerName: account.provider,
  paused: account.status === "paused",
  provider,
});

/** The stored routing of a project and environment, or the default over `accounts` (oldest first). */
export async function effectiveRouting(
  repository: ProviderRoutingRepository,
  projectId: string,
  environment: Environment,
  accountIdsOldestFirst: readonly string[],
): Promise<EffectiveRouting> {
  const stored = await repository.find(projectId, environment);
  if (stored) return { routes: stored.routes, isDefault: false, version: stored.version, updatedAt: stored.updatedAt };
  return { routes: defaultRoutes(accountIdsOldestFirst), isDefault: true, version: 0 };
}

/**
 * Routing as the creates use it: which accounts a new payment goes to, in order, and asking one
 * of them through its circuit breaker, counted in the provider-call metrics.
 */
export function createPaymentRouting(deps: PaymentRoutingDeps) {
  return {
    /**
     * The accounts to ask for `payment`, in order; undefined when the project has no provider
     * account in the environment (the environment's default provider serves it, as before routing).
     */
    async candidates(tenant: { projectId: string; environment: Environment }, payment: PaymentToRoute): Promise<RouteCandidate[] | undefined> {
      const accounts = await deps.accounts.accountsOf(tenant.projectId, tenant.environment);
      if (accounts.length === 0) return undefined;
      const routing = await effectiveRouting(deps.repository, tenant.projectId, tenant.environment, accounts.map(({ account }) => account._id));
      return routePayment(routing.routes, accounts.map(routingAccountOf), payment);
    },

    /** The accounts a payment of the project may go to (capabilities: the union of what they offer). */
    async routedAccounts(tenant: { projectId: string; environment: Environment }): Promise<RoutingAccount[] | undefined> {
      const accounts = await deps.accounts.accountsOf(tenant.projectId, tenant.environment);
      if (accounts.length === 0) return undefined;
      const routing = await effectiveRouting(deps.repository, tenant.projectId, tenant.environment, accounts.map(({ account }) => account._id));
      const routed = new Set(routing.routes.map((route) => route.providerAccountId));
      return accounts.map(routingAccountOf).filter((account) => routed.has(account.providerAccountId) && !account.paused);
    },

    /**
     * Asks `candidate` through its circuit breaker (an open one refuses at once with
     * PROVIDER_UNAVAILABLE, asking nothing) and counts the call.
     */
    async ask<T>(candidate: RouteCandidate, call: () => Promise<T>): Promise<T> {
      const labels = { provider: candidate.providerName, providerAccountId: candidate.providerAccountId };
      let started: number | undefined;
      try {
        const result = await deps.breakers.call(candidate.providerAccountId, () => {
          started = performance.now();
          return call();
        });
        deps.metrics.called(labels, "succeeded", (performance.now() - started!) / 1000);
        return result;
      } catch (error) {
        // A call the open circuit refused was never made: nothing to count.
        if (started !== undefined) deps.metrics.called(labels, outcomeOf(error), (performance.now() - started) / 1000);
        throw error;
      }
    },

    failedOver: (from: RouteCandidate, to: RouteCandidate) => deps.metrics.failedOver(from.providerAccountId, to.providerAccountId),
  };
}

export type PaymentRouting = ReturnType<typeof createPaymentRouting>;

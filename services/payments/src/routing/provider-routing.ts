import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProviderRoutingSchema, type ProviderRouting } from "@bayad/proto";
import { CURRENCY, type Environment } from "@bayad/kit";

/** One provider account a new payment may go to, and the payments it takes. */
export interface ProviderRoute {
  providerAccountId: string;
  /** Bayad's method names (`checkout`, `qrph`, `gcash`…); absent: every method. */
  methods?: string[];
  /** Inclusive bounds, in centavos; absent: no bound. */
  minAmountMinor?: number;
  maxAmountMinor?: number;
  /** 0–1000: its share of the matching payments asked first; 0: only by failover. */
  weight: number;
}

/**
 * How a project's new payments in one environment are spread over its provider accounts, as
 * stored in the `provider_routing` collection: one document per project and environment.
 */
export interface ProviderRoutingRecord {
  /** `${projectId}:${environment}`. */
  _id: string;
  projectId: string;
  environment: Environment;
  /** In order: after the weighted pick, failover tries the others in this order. */
  routes: ProviderRoute[];
  /** Bumped by every put: a put names the version it read (optimistic concurrency). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A routing as used and shown: the stored one, or the default when none is stored. */
export interface EffectiveRouting {
  routes: ProviderRoute[];
  /** True when nothing is stored. */
  isDefault: boolean;
  version: number;
  updatedAt?: Date;
}

export const routingIdOf = (projectId: string, environment: Environment) => `${projectId}:${environment}`;

/**
 * With nothing stored: the environment's accounts oldest first, the oldest taking every payment
 * (weight 100), the others only by failover (weight 0).
 */
export function defaultRoutes(accountIdsOldestFirst: readonly string[]): ProviderRoute[] {
  return accountIdsOldestFirst.map((providerAccountId, index) => ({ providerAccountId, weight: index === 0 ? 100 : 0 }));
}

export function providerRoutingToProto(projectId: string, environment: Environment, routing: EffectiveRouting): ProviderRouting {
  const money = (amountMinor: number | undefined) => (amountMinor === undefined ? undefined : { amountMinor: BigInt(amountMinor), currency: CURRENCY });
  return create(ProviderRoutingSchema, {
    projectId,
    environment,
    routes: routing.routes.map((route) => ({
      providerAccountId: route.providerAccountId,
      methods: route.methods ?? [],
      minAmount: money(route.minAmountMinor),
      maxAmount: money(route.maxAmountMinor),
      weight: route.weight,
    })),
    default: routing.isDefault,
    version: routing.version,
    ...(routing.updatedAt ? { updatedAt: timestampFromDate(routing.updatedAt) } : {}),
  });
}

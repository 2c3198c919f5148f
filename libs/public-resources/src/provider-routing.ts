import { create } from "@bufbuild/protobuf";
import { ProviderRouteSchema, type ProviderRoute, type ProviderRouting } from "@bayad/proto";
import { dateField, moneyToJson, required } from "./json.js";

/** A route as the admin API takes it. */
export interface ProviderRouteJson {
  providerAccountId: string;
  methods?: string[];
  minAmount?: { amountMinor: number; currency: string };
  maxAmount?: { amountMinor: number; currency: string };
  weight: number;
}

const moneyOf = (money: ProviderRouteJson["minAmount"]) => (money === undefined ? undefined : { amountMinor: BigInt(money.amountMinor), currency: money.currency });

export function providerRouteFromJson(route: ProviderRouteJson): ProviderRoute {
  return create(ProviderRouteSchema, {
    providerAccountId: route.providerAccountId,
    methods: route.methods ?? [],
    minAmount: moneyOf(route.minAmount),
    maxAmount: moneyOf(route.maxAmount),
    weight: route.weight,
  });
}

/** A project's routing between its provider accounts, as the admin API answers it. */
export function providerRoutingToJson(routing: ProviderRouting | undefined) {
  const r = required(routing, "provider routing");
  return {
    projectId: r.projectId,
    environment: r.environment,
    routes: r.routes.map((route) => ({
      providerAccountId: route.providerAccountId,
      ...(route.methods.length > 0 ? { methods: route.methods } : {}),
      ...(route.minAmount ? { minAmount: moneyToJson(route.minAmount) } : {}),
      ...(route.maxAmount ? { maxAmount: moneyToJson(route.maxAmount) } : {}),
      weight: route.weight,
    })),
    default: r.default,
    version: r.version,
    ...dateField("updatedAt", r.updatedAt),
  };
}

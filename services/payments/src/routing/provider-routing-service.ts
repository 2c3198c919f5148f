import type { ServiceImpl } from "@connectrpc/connect";
import type { ProviderRoutingService } from "@bayad/proto";
import type { Environment } from "@bayad/kit";
import { readAccountScope } from "../provider-accounts/provider-account-input.js";
import type { ProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { effectiveRouting } from "./payment-routing.js";
import { providerRoutingToProto, type EffectiveRouting } from "./provider-routing.js";
import type { ProviderRoutingRepository } from "./provider-routing-repository.js";
import { readRoutes } from "./routing-rules.js";

export interface ProviderRoutingDeps {
  repository: ProviderRoutingRepository;
  accounts: Pick<ProviderAccountsRepository, "listByProject">;
  now: () => Date;
}

/** The routing of a project and environment: the stored one, else the default over its accounts. */
export async function getProviderRouting(deps: ProviderRoutingDeps, projectId: string, environment: Environment): Promise<EffectiveRouting> {
  const accounts = await deps.accounts.listByProject(projectId, environment);
  return effectiveRouting(deps.repository, projectId, environment, accounts.map((account) => account._id));
}

/**
 * The ProviderRoutingService rpc handlers, the operators' (the gateway's admin API): requests
 * name their project and environment. A put is checked against the project's accounts before
 * anything is stored (routing-rules.ts) and applies only at the version it read.
 */
export function createProviderRoutingService(deps: ProviderRoutingDeps): ServiceImpl<typeof ProviderRoutingService> {
  return {
    async getProviderRouting(request) {
      const { projectId, environment } = readAccountScope(request);
      return { providerRouting: providerRoutingToProto(projectId, environment, await getProviderRouting(deps, projectId, environment)) };
    },

    async putProviderRouting(request) {
      const { projectId, environment } = readAccountScope(request);
      const accounts = await deps.accounts.listByProject(projectId, environment);
      const routes = readRoutes(request.routes, new Set(accounts.map((account) => account._id)), environment);
      const stored = await deps.repository.put(projectId, environment, request.version, routes, deps.now());
      const routing = { routes: stored.routes, isDefault: false, version: stored.version, updatedAt: stored.updatedAt };
      return { providerRouting: providerRoutingToProto(projectId, environment, routing) };
    },
  };
}

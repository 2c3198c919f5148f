import { queryOptions } from "@tanstack/react-query";
import { request, type Environment } from "../../api/client";
import { projectKeys, projectPath, type ProviderAccount, type ProviderRouting } from "./types";

/** The project's provider accounts, both environments (GET …/provider-accounts). */
export const providerAccountsQuery = (projectId: string) =>
  queryOptions({
    queryKey: projectKeys.providerAccounts(projectId),
    queryFn: () => request<ProviderAccount[]>(`${projectPath(projectId)}/provider-accounts`),
  });

/** The project's routing in one environment, the default when none is stored (GET …/provider-routing/{environment}). */
export const providerRoutingQuery = (projectId: string, environment: Environment) =>
  queryOptions({
    queryKey: projectKeys.providerRouting(projectId, environment),
    queryFn: () => request<ProviderRouting>(`${projectPath(projectId)}/provider-routing/${environment}`),
  });

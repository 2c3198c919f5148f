/** The admin resources of this area as the gateway answers them (gateway/openapi/openapi.yaml, Admin). */
export type { ApiKeySummary, Project, ProviderAccount, ProviderRoute, ProviderRouting, RouteMethod } from "../../api/schemas";
/** A key as issued: `apiKey` is the secret, answered this once. */
export type { ApiKey as IssuedApiKey } from "../../api/schemas";
import type { Environment } from "../../api/client";

export const projectPath = (projectId: string) => `/admin/v1/projects/${encodeURIComponent(projectId)}`;

/** Query keys of this area; the project list's key sits under the shell's, so creating one refreshes both. */
export const projectKeys = {
  pages: ["admin", "projects", "pages"],
  apiKeys: (projectId: string) => ["admin", "api-keys", projectId],
  providerAccounts: (projectId: string) => ["admin", "provider-accounts", projectId],
  /** Under the accounts' key: connecting or replacing an account refreshes the routing (its default lists the accounts). */
  providerRouting: (projectId: string, environment: Environment) => ["admin", "provider-accounts", projectId, "routing", environment],
};

/** The providers a project may hold an account at, one per environment each. */
export type ProviderName = "paymongo" | "xendit";
export const providerNames: readonly ProviderName[] = ["paymongo", "xendit"];
export { providerLabels } from "../../format";

/** The secret key's prefix per provider and environment (what the admin API checks). */
export const keyPrefixes: Record<ProviderName, Record<Environment, string>> = {
  paymongo: { test: "sk_test_", live: "sk_live_" },
  xendit: { test: "xnd_development_", live: "xnd_production_" },
};

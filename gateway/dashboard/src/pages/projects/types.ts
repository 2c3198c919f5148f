/** The admin resources of this area as the gateway answers them (gateway/openapi/openapi.yaml, Admin). */
export type { ApiKeySummary, Project, ProviderAccount } from "../../api/schemas";
/** A key as issued: `apiKey` is the secret, answered this once. */
export type { ApiKey as IssuedApiKey } from "../../api/schemas";
import type { Environment } from "../../api/client";

export const projectPath = (projectId: string) => `/admin/v1/projects/${encodeURIComponent(projectId)}`;

/** Query keys of this area; the project list's key sits under the shell's, so creating one refreshes both. */
export const projectKeys = {
  pages: ["admin", "projects", "pages"],
  apiKeys: (projectId: string) => ["admin", "api-keys", projectId],
  providerAccount: (projectId: string, environment: Environment) => ["admin", "provider-account", projectId, environment],
};

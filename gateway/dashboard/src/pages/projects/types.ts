/** The admin resources of this area as the gateway answers them (gateway/openapi/openapi.yaml, Admin). */
import type { Environment } from "../../api/client";

export interface Project {
  projectId: string;
  name: string;
  createdAt: string;
}

/** An API key as operators see it after creation: never the secret. */
export interface ApiKeySummary {
  keyId: string;
  environment: Environment;
  keyPrefix: string;
  keyLast4?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

/** A key as issued: `apiKey` is the secret, answered this once. */
export interface IssuedApiKey {
  keyId: string;
  environment: Environment;
  apiKey: string;
}

export interface ProviderAccount {
  providerAccountId: string;
  projectId: string;
  environment: Environment;
  provider: "paymongo";
  secretKeyLast4: string;
  paymentMethodTypes: string[];
  webhook: { webhookId: string; status: "enabled" | "disabled"; url: string };
  createdAt: string;
  updatedAt: string;
}

export const projectPath = (projectId: string) => `/admin/v1/projects/${encodeURIComponent(projectId)}`;

/** Query keys of this area; the project list's key sits under the shell's, so creating one refreshes both. */
export const projectKeys = {
  pages: ["admin", "projects", "pages"],
  apiKeys: (projectId: string) => ["admin", "api-keys", projectId],
  providerAccount: (projectId: string, environment: Environment) => ["admin", "provider-account", projectId, environment],
};

import { AppError } from "@bayad/kit";
import type { createApiKeys } from "../auth/api-keys.js";
import type { createDevTokenIssuer } from "../auth/service-tokens.js";
import type { createProjects, Project } from "../admin/projects.js";
import type { OperationHandlers } from "./operation.js";
import { providerAccountToJson, providerRoutingToJson, providerRouteFromJson } from "@bayad/public-resources";
import type { ProviderAccountsClient, ProviderRoutingClient } from "./provider-accounts.js";
import type { createSecretsReseal } from "../admin/secrets-reseal.js";

export interface AdminDeps {
  projects: ReturnType<typeof createProjects>;
  apiKeys: ReturnType<typeof createApiKeys>;
  /** Absent when the development token issuer is switched off. */
  devIssuer?: Awaited<ReturnType<typeof createDevTokenIssuer>>;
  /** The payments service's provider accounts. */
  providerAccounts: ProviderAccountsClient;
  /** The payments service's routing between a project's provider accounts. */
  providerRouting: ProviderRoutingClient;
  /** Moves every component's sealed values to the newest key of its ring. */
  resealSecrets: ReturnType<typeof createSecretsReseal>;
}

/** A project as the admin API answers it. */
function projectToJson(project: Project) {
  return { projectId: project.projectId, name: project.name, createdAt: project.createdAt.toISOString() };
}

/** The operators' API: projects (create, list), their API keys (issue, list, revoke), and development service tokens and their signing keys. */
export function adminRoutes(deps: AdminDeps): OperationHandlers {
  const requireProject = async (projectId: string) => {
    const project = await deps.projects.get(projectId);
    if (!project) throw new AppError("RESOURCE_NOT_FOUND", `No project with id ${projectId}.`);
    return project;
  };

  const requireDevIssuer = () => {
    if (!deps.devIssuer) {
      throw new AppError("ROUTE_NOT_FOUND", "The development token issuer is switched off (DEV_TOKEN_ISSUER=off).");
    }
    return deps.devIssuer;
  };

  return {
    async createProject({ body }) {
      return { status: 201, data: projectToJson(await deps.projects.create(body.name)) };
    },

    async listProjects({ query }) {
      const page = await deps.projects.list({
        // 0 and "" when absent: the projects listing owns the default page size.
        limit: query.limit ?? 0,
        cursor: query.cursor ?? "",
      });
      return {
        status: 200,
        data: { projects: page.projects.map(projectToJson), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      };
    },

    async createApiKey({ params, body }) {
      await requireProject(params.projectId);
      return { status: 201, data: await deps.apiKeys.issue(params.projectId, body.environment) };
    },

    async listApiKeys({ params }) {
      await requireProject(params.projectId);
      return { status: 200, data: await deps.apiKeys.list(params.projectId) };
    },

    async revokeApiKey({ params }) {
      await requireProject(params.projectId);
      const revoked = await deps.apiKeys.revoke(params.projectId, params.apiKeyId);
      if (!revoked) throw new AppError("RESOURCE_NOT_FOUND", `Project ${params.projectId} has no API key ${params.apiKeyId}.`);
      return { status: 200, data: revoked };
    },

    async createServiceToken({ body }) {
      const devIssuer = requireDevIssuer();
      await requireProject(body.projectId);
      const token = await devIssuer.issue({
        projectId: body.projectId,
        environment: body.environment,
        subject: body.subject,
        scopes: body.scopes,
        ttlSeconds: body.ttlSeconds,
      });
      return { status: 201, data: { accessToken: token.accessToken, expiresAt: token.expiresAt.toISOString() } };
    },

    // Provider accounts belong to the payments service; the project is checked here, where projects live.
    async putProviderAccount({ params, body }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerAccounts.putProviderAccount(
        {
          projectId: params.projectId,
          environment: params.environment,
          provider: body.provider,
          secretKey: body.secretKey,
          paymentMethodTypes: body.paymentMethodTypes ?? [],
          callbackToken: body.callbackToken ?? "",
        },
        call,
      );
      return { status: response.created ? 201 : 200, data: providerAccountToJson(response.providerAccount) };
    },

    async listProviderAccounts({ params }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerAccounts.listProviderAccounts({ projectId: params.projectId }, call);
      return { status: 200, data: response.providerAccounts.map(providerAccountToJson) };
    },

    // Without `provider`, the payments service answers the environment's only account (two: 400 naming provider).
    async getProviderAccount({ params, query }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerAccounts.getProviderAccount(
        { projectId: params.projectId, environment: params.environment, provider: query.provider ?? "" },
        call,
      );
      return { status: 200, data: providerAccountToJson(response.providerAccount) };
    },

    async deleteProviderAccount({ params, query }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerAccounts.deleteProviderAccount(
        { projectId: params.projectId, environment: params.environment, provider: query.provider ?? "" },
        call,
      );
      return { status: 200, data: providerAccountToJson(response.providerAccount) };
    },

    async getProviderRouting({ params }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerRouting.getProviderRouting({ projectId: params.projectId, environment: params.environment }, call);
      return { status: 200, data: providerRoutingToJson(response.providerRouting) };
    },

    async putProviderRouting({ params, body }, { call }) {
      await requireProject(params.projectId);
      const response = await deps.providerRouting.putProviderRouting(
        { projectId: params.projectId, environment: params.environment, routes: body.routes.map(providerRouteFromJson), version: body.version },
        call,
      );
      return { status: 200, data: providerRoutingToJson(response.providerRouting) };
    },

    async rotateSigningKeys() {
      return { status: 200, data: { keys: await requireDevIssuer().rotate() } };
    },

    async resealSecrets(_input, { call }) {
      return { status: 200, data: { components: await deps.resealSecrets(call) } };
    },
  };
}

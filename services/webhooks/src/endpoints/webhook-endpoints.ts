import { actOnce, createOnce } from "@bayad/idempotency";
import { AppError, newId, notFound, toStoredMetadata, type CallerContext } from "@bayad/kit";
import type { Update } from "@bayad/store";
import { pageOf, limitProblem, type Page, type PageRequest } from "../paging/page.js";
import type { WebhooksDeps } from "../webhooks-deps.js";
import {
  checkUrl,
  descriptionProblem,
  enabledEventsProblem,
  metadataProblem,
  refuseProblems,
  targetPolicyOf,
  urlProblem,
} from "./endpoint-input.js";
import {
  currentSecret,
  newSigningSecret,
  openSigningSecret,
  rotatedSecrets,
  sealSigningSecret,
} from "./signing-secrets.js";
import { endpointView, type WebhookEndpointRecord, type WebhookEndpointStatusText, type WebhookEndpointView } from "./webhook-endpoint.js";

type Scope = Pick<CallerContext, "projectId" | "environment">;
type Mutating = CallerContext & { idempotencyKey: string };

export interface CreateWebhookEndpointInput {
  url: string;
  enabledEvents: string[];
  description: string;
  metadata: Record<string, string>;
}

/** An endpoint with its secret in clear: only a create and a rotation answer with it. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

/** The endpoint of the scope, or RESOURCE_NOT_FOUND (another project's ids too). */
export async function getWebhookEndpoint(deps: WebhooksDeps, caller: Scope, endpointId: string): Promise<WebhookEndpointRecord> {
  const endpoint = await deps.endpoints.findById(caller, endpointId);
  if (!endpoint) throw notFound("webhook endpoint", endpointId);
  return endpoint;
}

/**
 * Registers an endpoint, enabled, with a new signing secret, or answers with the one this
 * Idempotency-Key registered within its window (and its current secret). A URL Bayad will not
 * post to is refused before anything is written.
 */
export async function createWebhookEndpoint(deps: WebhooksDeps, caller: Mutating, input: CreateWebhookEndpointInput): Promise<EndpointWithSecret> {
  refuseProblems([urlProblem(input.url), enabledEventsProblem(input.enabledEvents), descriptionProblem(input.description), metadataProblem(input.metadata)]);
  await checkUrl(input.url, caller.environment, targetPolicyOf(caller.environment, deps.config.allowPrivateTargets), deps.resolveHost);
  const withSecret = (record: WebhookEndpointRecord): EndpointWithSecret => ({
    endpoint: endpointView(record),
    secret: openSigningSecret(deps.config.secretsKey, record._id, currentSecret(record.secrets)),
  });
  return createOnce(deps.keys, caller, "createWebhookEndpoint", {
    existing: async (endpointId) => {
      const record = await deps.endpoints.findById(caller, endpointId);
      return record && withSecret(record);
    },
    create: async (claim) => {
      const endpointId = newId("we");
      const now = deps.now();
      const secret = newSigningSecret();
      const record: WebhookEndpointRecord = {
        _id: endpointId,
        projectId: caller.projectId,
        environment: caller.environment,
        url: input.url,
        enabledEvents: [...input.enabledEvents],
        description: input.description,
        metadata: toStoredMetadata(input.metadata),
        status: "enabled",
        secrets: [sealSigningSecret(deps.config.secretsKey, endpointId, secret, now)],
        createdAt: now,
        updatedAt: now,
      };
      await deps.store.transaction(async (session) => {
        await deps.endpoints.insert(record, session);
        await claim(session, endpointId);
      });
      return { endpoint: endpointView(record), secret };
    },
  });
}

/** The scope's endpoints, newest first. */
export async function listWebhookEndpoints(deps: WebhooksDeps, caller: Scope, request: PageRequest): Promise<Page<WebhookEndpointView>> {
  refuseProblems([limitProblem(request.limit)]);
  const scope = ["webhook-endpoints", caller.projectId, caller.environment];
  const page = await pageOf(deps.cursors, scope, request, (after, limit) => deps.endpoints.findPage(caller, after, limit));
  return { ...page, items: page.items.map(endpointView) };
}

/** Absent fields are left as they are. */
export interface UpdateWebhookEndpointInput {
  url?: string;
  enabledEvents?: string[];
  description?: string;
  status?: WebhookEndpointStatusText;
}

/**
 * Changes what is given. Enabling an endpoint (also one Bayad disabled) forgets why it was
 * disabled and how long it had been failing, as does a new URL: either starts afresh. Disabling
 * it stops its deliveries (a due attempt is then recorded failed without being sent).
 */
export async function updateWebhookEndpoint(
  deps: WebhooksDeps,
  caller: Mutating,
  endpointId: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointView> {
  const given = Object.values(input).some((value) => value !== undefined);
  refuseProblems([
    given ? undefined : "url, enabledEvents, description, status: at least one must be given",
    input.url !== undefined ? urlProblem(input.url) : undefined,
    input.enabledEvents !== undefined ? enabledEventsProblem(input.enabledEvents) : undefined,
    input.description !== undefined ? descriptionProblem(input.description) : undefined,
  ]);
  if (input.url !== undefined) await checkUrl(input.url, caller.environment, targetPolicyOf(caller.environment, deps.config.allowPrivateTargets), deps.resolveHost);
  return actOnce<WebhookEndpointView>(deps.keys, caller, "updateWebhookEndpoint", endpointId, (claim) =>
    deps.store.transaction(async (session) => {
      const current = await deps.endpoints.findById(caller, endpointId, session);
      if (!current) throw notFound("webhook endpoint", endpointId);
      const set: Partial<WebhookEndpointRecord> = { updatedAt: deps.now() };
      const unset: Record<string, true> = {};
      if (input.url !== undefined) set.url = input.url;
      if (input.enabledEvents !== undefined) set.enabledEvents = [...input.enabledEvents];
      if (input.description !== undefined) set.description = input.description;
      if (input.status !== undefined) set.status = input.status;
      const enabling = input.status === "enabled" && current.status === "disabled";
      if (enabling || input.status === "disabled") unset.disabledReason = true;
      if (enabling || (input.url !== undefined && input.url !== current.url)) unset.failingSince = true;
      const update: Update = { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) };
      const updated = await deps.endpoints.update(caller, endpointId, update, session);
      if (!updated) throw notFound("webhook endpoint", endpointId);
      const view = endpointView(updated);
      await claim(session, view);
      return view;
    }),
  );
}

/**
 * Removes the endpoint and its secrets; its pending attempts are recorded failed ("endpoint
 * deleted") when they come due, and its past attempts expire with the rest.
 */
export function deleteWebhookEndpoint(deps: WebhooksDeps, caller: Mutating, endpointId: string): Promise<WebhookEndpointView> {
  return actOnce<WebhookEndpointView>(deps.keys, caller, "deleteWebhookEndpoint", endpointId, (claim) =>
    deps.store.transaction(async (session) => {
      const current = await deps.endpoints.findById(caller, endpointId, session);
      if (!current || !(await deps.endpoints.delete(caller, endpointId, session))) throw notFound("webhook endpoint", endpointId);
      const view = endpointView(current);
      await claim(session, view);
      return view;
    }),
  );
}

/** What a rotation did, as its Idempotency-Key remembers it (never the secret itself). */
interface Rotation {
  endpoint: WebhookEndpointView;
  secretCreatedAt: Date;
  previousSecretExpiresAt: Date;
}

export interface RotatedEndpoint extends EndpointWithSecret {
  previousSecretExpiresAt: Date;
}

/**
 * A new signing secret, current at once; the previous one keeps signing beside it for 24 hours
 * so receivers can switch over, and any older one stops. A retry with the key answers with the
 * secret this rotation made (or, when the endpoint was rotated again since, its current one).
 */
export async function rotateWebhookEndpointSecret(deps: WebhooksDeps, caller: Mutating, endpointId: string): Promise<RotatedEndpoint> {
  let made: string | undefined;
  const rotation = await actOnce<Rotation>(deps.keys, caller, "rotateWebhookEndpointSecret", endpointId, async (claim) => {
    const secret = newSigningSecret();
    const result = await deps.store.transaction(async (session) => {
      const current = await deps.endpoints.findById(caller, endpointId, session);
      if (!current) throw notFound("webhook endpoint", endpointId);
      const now = deps.now();
      const secrets = rotatedSecrets(current.secrets, sealSigningSecret(deps.config.secretsKey, endpointId, secret, now), now);
      const updated = await deps.endpoints.update(caller, endpointId, { $set: { secrets, updatedAt: now } }, session);
      if (!updated) throw notFound("webhook endpoint", endpointId);
      const rotated: Rotation = { endpoint: endpointView(updated), secretCreatedAt: now, previousSecretExpiresAt: secrets[1].expiresAt! };
      await claim(session, rotated);
      return rotated;
    });
    // Only once committed: a run that lost to a concurrent one with the key made nothing.
    made = secret;
    return result;
  });
  if (made !== undefined) return { endpoint: rotation.endpoint, secret: made, previousSecretExpiresAt: rotation.previousSecretExpiresAt };
  const record = await getWebhookEndpoint(deps, caller, endpointId);
  const stored =
    record.secrets.find((secret) => new Date(secret.createdAt).getTime() === new Date(rotation.secretCreatedAt).getTime()) ?? currentSecret(record.secrets);
  return {
    endpoint: rotation.endpoint,
    secret: openSigningSecret(deps.config.secretsKey, endpointId, stored),
    previousSecretExpiresAt: new Date(rotation.previousSecretExpiresAt),
  };
}

/** INVALID_STATE_TRANSITION unless the endpoint is enabled: a disabled one is sent nothing. */
export function requireEnabled(endpoint: WebhookEndpointRecord, action: string): void {
  if (endpoint.status !== "enabled") {
    throw new AppError("INVALID_STATE_TRANSITION", `A webhook endpoint with status ${endpoint.status} cannot be ${action}; enable it first.`);
  }
}

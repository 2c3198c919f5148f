import { performance } from "node:perf_hooks";
import type { Logger, SealingKeys } from "@bayad/kit";
import type { PublicUrl } from "@bayad/public-resources";
import type { ClaimedAttempt } from "../deliveries/webhook-deliveries-repository.js";
import { targetPolicyOf } from "../endpoints/endpoint-input.js";
import { signatureHeader } from "../endpoints/signing-secrets.js";
import type { WebhookEventsRepository } from "../events/webhook-events-repository.js";
import { renderEvent } from "../events/webhook-event.js";
import type { DeliveryMetrics } from "../metrics.js";
import { recordOutcome, type AttemptResult, type OutcomeDeps } from "./outcome.js";
import type { Sender } from "./sender.js";

export interface AttemptDeps extends OutcomeDeps {
  events: WebhookEventsRepository;
  sender: Sender;
  secretsKey: SealingKeys;
  allowPrivateTargets: boolean;
  publicUrl: PublicUrl;
  metrics: DeliveryMetrics;
  logger: Logger;
}

export const USER_AGENT = "Bayad-Webhooks/1";

/**
 * Makes one claimed attempt: the event rendered now (its hosted-page URLs absolute with today's
 * public URL), signed with every secret of the endpoint still signing, posted, and the outcome
 * recorded. Nothing is sent to an endpoint deleted or disabled since the attempt was scheduled.
 * Logs name the event, endpoint, attempt and answer; never the secret, the URL or the body.
 */
export async function makeAttempt(deps: AttemptDeps, claimed: ClaimedAttempt): Promise<void> {
  const result = await attempt(deps, claimed);
  const recorded = await recordOutcome(deps, claimed, result);
  const fields = {
    eventId: claimed.eventId,
    eventType: claimed.eventType,
    webhookEndpointId: claimed.webhookEndpointId,
    deliveryId: claimed._id,
    attempt: claimed.attempt,
    ...(result.kind === "answered" ? { responseStatusCode: result.statusCode } : {}),
    ...(result.kind !== "skipped" && result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
    ...(result.kind !== "answered" ? { error: result.error } : {}),
  };
  if (!recorded) {
    deps.logger.warn(fields, "webhook attempt's claim ran out before its outcome was recorded; another dispatcher makes it again");
    return;
  }
  if (result.kind !== "skipped") deps.metrics.attempted(recorded.status, result.durationMs);
  const logged = { ...fields, outcome: recorded.status, ...(recorded.nextAttemptAt ? { nextAttemptAt: recorded.nextAttemptAt.toISOString() } : {}) };
  if (recorded.disabled) deps.logger.warn({ ...logged, disabledReason: recorded.disabled }, "webhook endpoint disabled");
  else deps.logger.info(logged, recorded.status === "succeeded" ? "webhook delivered" : "webhook attempt failed");
}

async function attempt(deps: AttemptDeps, claimed: ClaimedAttempt): Promise<AttemptResult> {
  const endpoint = await deps.endpoints.findForDelivery(claimed.webhookEndpointId);
  if (!endpoint) return { kind: "skipped", error: "endpoint deleted" };
  if (endpoint.status !== "enabled") return { kind: "skipped", error: "endpoint disabled" };
  const event = await deps.events.findForDelivery(claimed.eventId);
  if (!event) return { kind: "skipped", error: "event expired" };
  const rendered = renderEvent(event, deps.publicUrl);
  if (!rendered) return { kind: "skipped", error: "event can no longer be rendered" };
  const body = JSON.stringify(rendered);
  const timestamp = deps.now();
  let signature: string;
  try {
    signature = signatureHeader(deps.secretsKey, endpoint._id, endpoint.secrets, { id: rendered.id, timestamp, body }, timestamp);
  } catch (error) {
    deps.logger.error({ err: error, webhookEndpointId: endpoint._id }, "a webhook endpoint's secret does not open with SECRETS_KEY");
    return { kind: "failed", error: "not signed: the endpoint's secret cannot be opened" };
  }
  const started = performance.now();
  const sent = await deps.sender.send(
    {
      url: endpoint.url,
      environment: endpoint.environment,
      body,
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": rendered.id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
      },
    },
    targetPolicyOf(endpoint.environment, deps.allowPrivateTargets),
  );
  const durationMs = Math.round(performance.now() - started);
  return "statusCode" in sent ? { kind: "answered", statusCode: sent.statusCode, durationMs } : { kind: "failed", error: sent.error, durationMs };
}

import { WebhooksService } from "@bayad/proto";
import { createCursorCodec, digestKeyOf, startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { registerConsumerMetrics, type EventBus } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { publicUrlResolver, type PublicUrl } from "@bayad/public-resources";
import type { Store } from "@bayad/store";
import type { WebhooksConfig } from "./config.js";
import { startWebhooksConsumer, WEBHOOKS_DURABLE_NAME } from "./consumer.js";
import { createWebhookDeliveriesRepository } from "./deliveries/webhook-deliveries-repository.js";
import { startDispatcher, type Dispatcher } from "./dispatch/dispatcher.js";
import { createSender } from "./dispatch/sender.js";
import { systemResolver, type Resolver } from "./dispatch/target-policy.js";
import { createWebhookEndpointsRepository } from "./endpoints/webhook-endpoints-repository.js";
import { createWebhookEventsRepository } from "./events/webhook-events-repository.js";
import { registerWebhooksMetrics } from "./metrics.js";
import { WEBHOOKS_CURSOR_PURPOSE } from "./paging/page.js";
import { createWebhooksService } from "./webhooks-service.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

export interface WebhooksServerOptions {
  store: Store;
  /** Where events come from (its durable consumer `webhooks`). */
  bus: EventBus;
  config: WebhooksConfig;
  logger: Logger;
  /** The process's Prometheus registry: rpc metrics, consumer lag, deliveries. */
  metrics?: Registry;
  host?: string;
  port?: number;
  /** The gateway's URL when PUBLIC_URL is unset (`npm start`: known once the gateway listens). */
  publicUrl?: () => string | undefined;
  /** How registration and delivery resolve host names before checking their addresses (the system's resolver; tests give their own). */
  resolveHost?: Resolver;
}

/** Beyond WEBHOOK_TIMEOUT, what a claim leaves for the writes around an attempt. */
const CLAIM_MARGIN_MS = 30_000;

/**
 * Hosted-page URLs made absolute with PUBLIC_URL, else the URL the platform hands over; left as
 * paths while neither is known.
 */
function publicUrlOf(config: WebhooksConfig, platformUrl: (() => string | undefined) | undefined): PublicUrl {
  const base = () => config.publicUrl ?? platformUrl?.();
  const absolute = publicUrlResolver(() => base()!);
  return (pathOrUrl) => (base() === undefined ? pathOrUrl : absolute(pathOrUrl));
}

/**
 * Serves WebhooksService over gRPC with health, takes events from the bus into its collections,
 * and delivers them. The consumer and the dispatcher start once the indexes exist; close stops
 * consuming first (nothing new is scheduled), then lets the attempts in flight finish and be
 * recorded (each is bounded by WEBHOOK_TIMEOUT). Whatever is still pending is made by the next
 * process on the same store, or by another replica.
 */
export async function startWebhooksServer(options: WebhooksServerOptions): Promise<RunningServer> {
  const { store, bus, config, logger } = options;
  if (config.publicUrl === undefined && options.publicUrl === undefined) {
    logger.warn("PUBLIC_URL is not set: hosted-page URLs in webhook events stay relative paths");
  }
  const deliveries = createWebhookDeliveriesRepository(store);
  const endpoints = createWebhookEndpointsRepository(store);
  const events = createWebhookEventsRepository(store);
  const publicUrl = publicUrlOf(config, options.publicUrl);
  const now = () => new Date();
  const resolveHost = options.resolveHost ?? systemResolver;
  let dispatcher: Dispatcher | undefined;
  const deps: WebhooksDeps = {
    store,
    endpoints,
    events,
    deliveries,
    keys: createIdempotencyKeys(store, { windowMs: config.idempotencyWindowMs }),
    cursors: createCursorCodec(digestKeyOf(config.secretsKey), WEBHOOKS_CURSOR_PURPOSE),
    config,
    publicUrl,
    now,
    resolveHost,
    scheduled: () => dispatcher?.nudge(),
  };
  const service = createWebhooksService(deps);
  await store.ensureIndexes();

  const metrics = registerWebhooksMetrics(options.metrics, async () => {
    const at = now();
    const oldest = await deliveries.oldestDue(at);
    return oldest ? Math.max(0, (at.getTime() - oldest.getTime()) / 1000) : 0;
  });
  const sender = createSender({ timeoutMs: config.timeoutMs, resolve: resolveHost });
  dispatcher = startDispatcher({
    deps: {
      store,
      endpoints,
      events,
      deliveries,
      sender,
      secretsKey: config.secretsKey,
      allowPrivateTargets: config.allowPrivateTargets,
      publicUrl,
      metrics,
      logger,
      retryScheduleMs: config.retryScheduleMs,
      disableAfterMs: config.disableAfterMs,
      retentionMs: config.eventRetentionMs,
      now,
    },
    deliveries,
    claimMs: config.timeoutMs + CLAIM_MARGIN_MS,
    logger,
  });
  const delivery = {
    async stop() {
      await dispatcher.stop();
      await sender.close();
      metrics.stop();
    },
  };

  let consumption: Awaited<ReturnType<typeof startWebhooksConsumer>>;
  try {
    consumption = await startWebhooksConsumer({ bus, deps, logger, batchSize: config.batchSize });
  } catch (error) {
    await delivery.stop();
    throw error;
  }
  if (options.metrics) registerConsumerMetrics(options.metrics, bus, WEBHOOKS_DURABLE_NAME);

  try {
    return await startServiceServer({
      serviceName: WebhooksService.typeName,
      routes: (router) => router.service(WebhooksService, service),
      // Readiness is about answering the API, which needs the store only; a bus outage makes
      // events arrive late (the durable consumer catches up) but does not stop deliveries.
      isReady: () => store.ping().then(() => true),
      logger,
      host: options.host,
      port: options.port,
      metrics: options.metrics,
      workers: [consumption, delivery],
    });
  } catch (error) {
    await consumption.stop();
    await delivery.stop();
    throw error;
  }
}

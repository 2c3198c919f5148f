import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Webhook } from "standardwebhooks";
import { WebhooksService } from "@bayad/proto";
import { callerHeaders, createLogger, newId, type Environment, type Env, type Logger, type RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createInProcessBus, type EventBus } from "@bayad/events";
import { readWebhooksConfig } from "../config.js";
import { startWebhooksServer, type WebhooksServerOptions } from "../server.js";
import type { ReceivedDelivery } from "../testing/webhook-receiver.js";
import { createTestStore } from "@bayad/store/testing";

export const SECRETS_KEY = "test-secrets-key-0123456789-abcdefghijklmnop";
export const PUBLIC_URL = "https://pay.example.ph";

/** Quick retries: the first attempt at once, two more a second apart. */
export const quickEnv: Env = { SECRETS_KEY, PUBLIC_URL, WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT: "5s" };

export interface Harness {
  store: Store;
  bus: EventBus;
  server: RunningServer;
  client: Client<typeof WebhooksService>;
  logger: Logger;
  /** Starts another server on the same store and bus (the previous one stopped first by the caller). */
  restart(env?: Env): Promise<void>;
  close(): Promise<void>;
}

/** The webhooks service as the gateway reaches it (gRPC over HTTP/2), on a temporary embedded store and an in-process bus. */
export async function startHarness(env: Env = quickEnv, extra: Partial<WebhooksServerOptions> = {}): Promise<Harness> {
  const logger = createLogger("webhooks-test", "silent");
  const store = createTestStore();
  const bus = createInProcessBus({ redeliveryDelayMs: 5, logger });
  const start = (startEnv: Env) => startWebhooksServer({ store, bus, config: readWebhooksConfig(startEnv), logger, ...extra });
  const harness: Harness = {
    store,
    bus,
    logger,
    server: await start(env),
    client: undefined as unknown as Client<typeof WebhooksService>,
    async restart(restartEnv = env) {
      harness.server = await start(restartEnv);
      harness.client = createClient(WebhooksService, createGrpcTransport({ baseUrl: harness.server.url }));
    },
    async close() {
      await harness.server.close();
      await bus.close();
      await store.close();
    },
  };
  harness.client = createClient(WebhooksService, createGrpcTransport({ baseUrl: harness.server.url }));
  return harness;
}

/** Call options on behalf of a project; mutations carry a fresh Idempotency-Key unless given one. */
export function as(projectId: string, environment: Environment = "test", idempotencyKey: string | null = newId("key")) {
  return {
    headers: callerHeaders({
      projectId,
      environment,
      correlationId: "webhooks-test",
      ...(idempotencyKey !== null ? { idempotencyKey } : {}),
    }),
  };
}

export interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  environment: string;
  data: Record<string, unknown>;
}

/** Verifies a delivery with `secret` as a consumer would, with the standardwebhooks package; throws when it does not verify. */
export function verified(delivery: ReceivedDelivery, secret: string): DeliveredEvent {
  return new Webhook(secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  }) as DeliveredEvent;
}

/** A project id of its own for each test, so tests never see each other's data. */
export const newProject = () => newId("prj");

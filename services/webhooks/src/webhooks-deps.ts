import type { IdempotencyKeys } from "@bayad/idempotency";
import type { CursorCodec } from "@bayad/kit";
import type { PublicUrl } from "@bayad/public-resources";
import type { Store } from "@bayad/store";
import type { WebhooksConfig } from "./config.js";
import type { WebhookDeliveriesRepository } from "./deliveries/webhook-deliveries-repository.js";
import type { WebhookEndpointsRepository } from "./endpoints/webhook-endpoints-repository.js";
import type { WebhookEventsRepository } from "./events/webhook-events-repository.js";
import type { Resolver } from "./dispatch/target-policy.js";

/** What the rpcs and the consumer work with: the three collections, the config, the clock. */
export interface WebhooksDeps {
  store: Store;
  endpoints: WebhookEndpointsRepository;
  events: WebhookEventsRepository;
  deliveries: WebhookDeliveriesRepository;
  /** What each Idempotency-Key did, for its window. */
  keys: IdempotencyKeys;
  cursors: CursorCodec;
  config: Pick<WebhooksConfig, "secretsKey" | "allowPrivateTargets" | "eventRetentionMs" | "retryScheduleMs">;
  /** Makes events' hosted-page URLs absolute. */
  publicUrl: PublicUrl;
  now: () => Date;
  /** How a registered URL's host name is resolved to judge its addresses (the system's resolver; tests give their own). */
  resolveHost: Resolver;
  /** Tells the dispatcher that attempts were scheduled, so a due one is made now rather than at its next poll. */
  scheduled: () => void;
}

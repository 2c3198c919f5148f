import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { WebhookEndpointSchema, WebhookEndpointStatus, type WebhookEndpoint } from "@bayad/proto";
import { fromStoredMetadata, type Environment, type StoredMetadata } from "@bayad/kit";
import type { StoredSigningSecret } from "./signing-secrets.js";

export type WebhookEndpointStatusText = "enabled" | "disabled";

/** Why Bayad disabled an endpoint: the receiver answered 410, or every attempt failed for WEBHOOK_DISABLE_AFTER. */
export type DisabledReason = "gone" | "failing";

/** Subscribes an endpoint to every public event type. */
export const ALL_EVENTS = "*";

/** An endpoint as the `webhook_endpoints` collection holds it. */
export interface WebhookEndpointRecord {
  /** we_… */
  _id: string;
  projectId: string;
  environment: Environment;
  url: string;
  /** Public event types, or ["*"]. */
  enabledEvents: string[];
  description: string;
  metadata: StoredMetadata;
  status: WebhookEndpointStatusText;
  disabledReason?: DisabledReason;
  /** The current secret and, for a day after a rotation, the previous one. */
  secrets: StoredSigningSecret[];
  /** When its attempts started failing (cleared by any success); disabling is measured from here. */
  failingSince?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** An endpoint without its secrets: what answers and idempotent replays carry. */
export type WebhookEndpointView = Omit<WebhookEndpointRecord, "secrets" | "failingSince">;

export function endpointView(record: WebhookEndpointRecord): WebhookEndpointView {
  const { secrets: _secrets, failingSince: _failingSince, ...view } = record;
  return view;
}

/** Whether the endpoint is told of events of `type`. */
export function subscribesTo(endpoint: Pick<WebhookEndpointRecord, "enabledEvents">, type: string): boolean {
  return endpoint.enabledEvents.includes(ALL_EVENTS) || endpoint.enabledEvents.includes(type);
}

export function webhookEndpointToProto(endpoint: WebhookEndpointView): WebhookEndpoint {
  return create(WebhookEndpointSchema, {
    webhookEndpointId: endpoint._id,
    url: endpoint.url,
    enabledEvents: [...endpoint.enabledEvents],
    description: endpoint.description,
    metadata: fromStoredMetadata(endpoint.metadata),
    status: endpoint.status === "enabled" ? WebhookEndpointStatus.ENABLED : WebhookEndpointStatus.DISABLED,
    disabledReason: endpoint.disabledReason ?? "",
    createdAt: timestampFromDate(endpoint.createdAt),
    updatedAt: timestampFromDate(endpoint.updatedAt),
  });
}

import { toBinary } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { EventSchema, type Event } from "@bayad/proto";
import { isEnvironment, notFound, type CallerContext } from "@bayad/kit";
import type { Session } from "@bayad/store";
import { isWebhookEventType, publicEventOf, testEventType } from "@bayad/public-resources";
import { refuseProblems } from "../endpoints/endpoint-input.js";
import { subscribesTo } from "../endpoints/webhook-endpoint.js";
import { limitProblem, pageOf, type Page, type PageRequest } from "../paging/page.js";
import type { WebhooksDeps } from "../webhooks-deps.js";
import { renderEvent, type RenderedEvent, type WebhookEventRecord } from "./webhook-event.js";

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** What taking one internal event did. */
export type RecordedEvent =
  | { outcome: "not-public" }
  | { outcome: "malformed"; problem: string }
  | { outcome: "duplicate" }
  | { outcome: "recorded"; type: string; attempts: number };

/**
 * Takes one internal event in the caller's transaction `session` (the consumer takes a batch of
 * events in one): when consumers are told of it, stores its public event and schedules the first
 * attempt to each of the project's enabled endpoints (of its environment) that subscribe to its
 * type, so an event is never stored without its attempts. An event stored already (the bus
 * delivers at least once) changes nothing. A store failure throws, and the transaction with it.
 */
export async function recordEvent(deps: WebhooksDeps, event: Event, session: Session): Promise<RecordedEvent> {
  let published: ReturnType<typeof publicEventOf>;
  try {
    published = publicEventOf(event, deps.publicUrl);
  } catch {
    // A snapshot the public form cannot be made of would fail on every redelivery.
    return { outcome: "malformed", problem: "an event whose resource cannot be rendered" };
  }
  if (!published) return { outcome: "not-public" };
  if (event.projectId === "" || !isEnvironment(event.environment) || !event.occurredAt || !event.eventId.startsWith("evt_")) {
    return { outcome: "malformed", problem: "an event without its id, project, environment or time" };
  }
  const scope = { projectId: event.projectId, environment: event.environment };
  const now = deps.now();
  const record: WebhookEventRecord = {
    _id: event.eventId,
    ...scope,
    type: published.type,
    resourceId: event.resourceId,
    createdAt: timestampDate(event.occurredAt),
    event: Buffer.from(toBinary(EventSchema, event)).toString("base64"),
    expiresAt: new Date(now.getTime() + deps.config.eventRetentionMs),
  };
  if (!(await deps.events.insertIfAbsent(record, session))) return { outcome: "duplicate" };
  const firstDelay = deps.config.retryScheduleMs[0] ?? 0;
  const endpoints = (await deps.endpoints.findEnabled(scope, session)).filter((endpoint) => subscribesTo(endpoint, published.type));
  for (const endpoint of endpoints) {
    await deps.deliveries.schedule(
      {
        webhookEndpointId: endpoint._id,
        eventId: record._id,
        eventType: record.type,
        ...scope,
        attempt: 1,
        redelivery: false,
        scheduledAt: new Date(now.getTime() + firstDelay),
      },
      now,
      session,
    );
  }
  return { outcome: "recorded", type: published.type, attempts: endpoints.length };
}

export interface ListEventsInput extends PageRequest {
  type: string;
  /** Only the events about this resource (their stored resourceId); empty for every event. */
  resourceId: string;
  createdAfter?: Timestamp;
  createdBefore?: Timestamp;
}

/**
 * A `createdAfter`/`createdBefore` bound as the instant stored createdAt values (whole
 * milliseconds) compare against: a finer part rounds up, so `>=` and `<` answer as against the
 * bound itself.
 */
function createdBound(timestamp: Timestamp): Date {
  return new Date(Number(timestamp.seconds) * 1000 + Math.ceil(timestamp.nanos / 1_000_000));
}

/** The REST contract's bound on the `resourceId` filter. */
const MAX_RESOURCE_ID_LENGTH = 255;

/** The scope's events, newest first, optionally of one type, about one resource, and within a creation range. */
export async function listEvents(deps: WebhooksDeps, caller: Scope, input: ListEventsInput): Promise<Page<RenderedEvent>> {
  const createdAfter = input.createdAfter ? createdBound(input.createdAfter) : undefined;
  const createdBefore = input.createdBefore ? createdBound(input.createdBefore) : undefined;
  refuseProblems([
    input.type !== "" && input.type !== testEventType && !isWebhookEventType(input.type) ? "type: must be an event type" : undefined,
    input.resourceId.length > MAX_RESOURCE_ID_LENGTH ? `resourceId: must be at most ${MAX_RESOURCE_ID_LENGTH} characters` : undefined,
    createdAfter && Number.isNaN(createdAfter.getTime()) ? "createdAfter: must be a date-time" : undefined,
    createdBefore && Number.isNaN(createdBefore.getTime()) ? "createdBefore: must be a date-time" : undefined,
    limitProblem(input.limit),
  ]);
  const query = {
    ...(input.type !== "" ? { type: input.type } : {}),
    ...(input.resourceId !== "" ? { resourceId: input.resourceId } : {}),
    ...(createdAfter ? { createdAfter } : {}),
    ...(createdBefore ? { createdBefore } : {}),
  };
  const scope = [
    "events",
    caller.projectId,
    caller.environment,
    input.type,
    createdAfter?.getTime() ?? null,
    createdBefore?.getTime() ?? null,
    // Appended only when given, so the cursors of listings without it read as before it existed.
    ...(input.resourceId !== "" ? [input.resourceId] : []),
  ];
  const page = await pageOf(deps.cursors, scope, input, (after, limit) => deps.events.findPage(caller, query, after, limit));
  return { ...page, items: page.items.map((record) => rendered(deps, record)) };
}

/** One of the scope's events; another project's or environment's does not exist for it. */
export async function getEvent(deps: WebhooksDeps, caller: Scope, eventId: string): Promise<RenderedEvent> {
  const record = await deps.events.findById(caller, eventId);
  if (!record) throw notFound("event", eventId);
  return rendered(deps, record);
}

function rendered(deps: WebhooksDeps, record: WebhookEventRecord): RenderedEvent {
  const event = renderEvent(record, deps.publicUrl);
  if (!event) throw new Error(`the stored event ${record._id} cannot be rendered`);
  return event;
}

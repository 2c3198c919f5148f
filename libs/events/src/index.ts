export {
  createOutbox,
  outboxCollection,
  type Outbox,
  type OutboxRecord,
  type NewEvent,
  type EventSnapshot,
} from "./outbox.js";
export { commitChange, writeChange, type Change, type Versioned } from "./versioned-change.js";
export { createResource, moveResource, type ResourceMover, type MoveOptions, type StatefulRecord } from "./move-resource.js";
export type { EventBus, BusMessage, DeliveredMessage, MessageHandler, Consumption } from "./bus.js";

export {
  createOutbox,
  outboxCollection,
  type Outbox,
  type OutboxRecord,
  type NewEvent,
  type EventSnapshot,
} from "./outbox.js";
export { commitChange, writeChange, type Change, type Versioned } from "./versioned-change.js";
export { VersionConflict, VERSION_CONFLICT_ATTEMPTS, retryVersionConflicts } from "./version-conflicts.js";
export { createResource, moveResource, writeMove, writeNextVersion, type ResourceMover, type MoveOptions, type StatefulRecord } from "./move-resource.js";
export type { EventBus, BusMessage, DeliveredMessage, MessageHandler, BatchHandler, BatchOptions, Consumption } from "./bus.js";
export { startRelayWorker } from "./relay-worker.js";
export { traceMessages } from "./message-span.js";
export { batchInTransaction, type BatchConsumer } from "./batch-in-transaction.js";
export { eventMessageHandler } from "./event-handler.js";
export { BusUnavailableError } from "./bus-unavailable-error.js";
export { createInProcessBus, type InProcessBusOptions } from "./in-process-bus.js";
export { connectJetStreamBus, type JetStreamBusOptions } from "./jetstream-bus.js";
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from "./outbox-relay.js";
export { registerOutboxMetrics, registerConsumerMetrics } from "./metrics.js";

export {
  createOutbox,
  outboxCollection,
  type Outbox,
  type OutboxRecord,
  type NewEvent,
  type EventSnapshot,
} from "./outbox.js";

/**
 * The event bus port. Services' outbox relays publish to it and the records service consumes
 * from it. NATS JetStream is the production bus (and whenever NATS_URL is set); an in-process
 * bus with the same guarantees serves the one-process mode and tests.
 */

/** One event as the bus carries it. */
export interface BusMessage {
  /** `bayad.events.<service>.<resource>.<verb>` (a namespace, when configured, is the bus's business). */
  subject: string;
  /** The event id: JetStream's Nats-Msg-Id, so a second publish of one event is dropped. */
  eventId: string;
  /** The protobuf-encoded bayad.events.v1.Event. */
  payload: Uint8Array;
  /**
   * The trace context of the change the event announces (W3C `traceparent`, `tracestate`), when
   * traces are on: JetStream message headers, passed with the message in process. Consumers open
   * their spans under it.
   */
  headers?: Record<string, string>;
}

export interface DeliveredMessage extends BusMessage {
  /** True when this message was delivered before and not acknowledged. */
  redelivered: boolean;
}

/**
 * Handles one delivered message. Resolving acknowledges it; throwing leaves it unacknowledged,
 * so the bus delivers it again later (at-least-once: handlers must be idempotent).
 */
export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

/**
 * Handles a batch of delivered messages, in the order the bus delivered them. Resolving
 * acknowledges every message of the batch; throwing leaves all of them unacknowledged, so the bus
 * delivers them again (at-least-once: handlers must be idempotent). A batch delivered again need
 * not hold the same messages: it may hold more, and on JetStream it may be split or regrouped.
 */
export type BatchHandler = (messages: readonly DeliveredMessage[]) => Promise<void>;

export interface BatchOptions {
  /**
   * The most messages in one batch. A batch holds what is ready when the handler is free, up to
   * this many; it never waits to fill up, so one message alone is a batch of one.
   */
  maxMessages: number;
}

export interface Consumption {
  /** Stops taking new messages and waits for the handler (or batch) in progress; unacked ones stay pending. */
  stop(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the bus has durably accepted the message (JetStream: the server's ack). */
  publish(message: BusMessage): Promise<void>;
  /**
   * A durable consumer of every event: its position survives the consumer's (and, on JetStream,
   * the process's) restart, so nothing published while it was stopped is missed.
   */
  consume(durableName: string, handler: MessageHandler): Promise<Consumption>;
  /**
   * The same durable consumer, handing its messages over in batches (one store transaction per
   * batch, say, instead of one per message). `consume` is this with batches of one.
   */
  consumeBatches(durableName: string, handler: BatchHandler, options: BatchOptions): Promise<Consumption>;
  /**
   * How many messages the durable consumer has yet to acknowledge (its lag), or undefined when
   * it cannot be told now (no such consumer yet, or the bus is unreachable). For metrics.
   */
  pending(durableName: string): Promise<number | undefined>;
  /** Whether the bus is reachable now (for readiness). */
  isConnected(): boolean;
  close(): Promise<void>;
}

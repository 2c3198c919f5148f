import type { BatchHandler, BatchOptions, MessageHandler } from "./bus.js";

/**
 * `handler` as a batch handler: what `consume` runs over `consumeBatches` with batches of one, so
 * each bus keeps a single delivery loop. Given a longer batch it handles the messages in turn, and
 * a failure leaves the whole batch unacknowledged, as for any batch.
 */
export function oneAtATime(handler: MessageHandler): BatchHandler {
  return async (messages) => {
    for (const message of messages) await handler(message);
  };
}

/** The batch bound, checked: a bound below one would hand out empty batches forever. */
export function batchBound(options: BatchOptions): number {
  const { maxMessages } = options;
  if (!Number.isInteger(maxMessages) || maxMessages < 1) throw new RangeError(`maxMessages must be a positive integer, not ${maxMessages}`);
  return maxMessages;
}

import type { BusMessage, EventBus } from "../bus.js";
import { BusUnavailableError } from "../bus-unavailable-error.js";

/** A bus whose next `failures` publishes fail (counted down), then behaves like `inner`. */
export interface FlakyBus extends EventBus {
  failNext(count: number): void;
  /** Publish attempts that were refused so far. */
  readonly refused: number;
}

export function flakyBus(inner: EventBus): FlakyBus {
  let failing = 0;
  let refused = 0;
  return {
    failNext(count) {
      failing = count;
    },
    get refused() {
      return refused;
    },
    async publish(message: BusMessage) {
      if (failing > 0) {
        failing--;
        refused++;
        throw new BusUnavailableError("simulated bus outage");
      }
      await inner.publish(message);
    },
    consume: (durableName, handler) => inner.consume(durableName, handler),
    consumeBatches: (durableName, handler, options) => inner.consumeBatches(durableName, handler, options),
    pending: (durableName) => inner.pending(durableName),
    isConnected: () => inner.isConnected(),
    close: () => inner.close(),
  };
}

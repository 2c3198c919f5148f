import type { Logger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EventBus } from "./bus.js";
import { startOutboxRelay } from "./outbox-relay.js";

/**
 * A service's outbox relay as one of its server's workers: it relays while the service runs and,
 * when the service stops, publishes what is still pending before it stops (graceful shutdown
 * flushes the outbox). If the bus is down at that moment the events stay in the outbox, safe,
 * for the next start of any replica.
 */
export function startRelayWorker(options: { store: Store; bus: EventBus; logger: Logger }): { stop(): Promise<void> } {
  const relay = startOutboxRelay(options);
  return {
    async stop() {
      await relay.flush().catch((error: unknown) =>
        options.logger.warn({ err: error }, "outbox not flushed at shutdown; its events wait for the next start"),
      );
      await relay.stop();
    },
  };
}

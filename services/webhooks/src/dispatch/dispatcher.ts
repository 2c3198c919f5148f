import type { Logger } from "@bayad/kit";
import type { WebhookDeliveriesRepository } from "../deliveries/webhook-deliveries-repository.js";
import { makeAttempt, type AttemptDeps } from "./attempt.js";

export interface DispatcherOptions {
  deps: AttemptDeps;
  deliveries: WebhookDeliveriesRepository;
  /**
   * How long a claim holds: longer than an attempt can take (WEBHOOK_TIMEOUT and the writes
   * around it), so an attempt is never made twice at once; a dispatcher that dies mid-attempt
   * leaves it to be made again once this has passed.
   */
  claimMs: number;
  /** How often due attempts are looked for when nothing wakes the dispatcher. */
  pollMs?: number;
  /** Attempts made at once (each may wait up to WEBHOOK_TIMEOUT on a slow receiver). */
  maxInFlight?: number;
  logger: Logger;
}

export interface Dispatcher {
  /** Attempts were scheduled: look for due ones now rather than at the next poll. */
  nudge(): void;
  /** Stops claiming, and resolves once the attempts in flight are made and recorded. */
  stop(): Promise<void>;
}

const DEFAULT_POLL_MS = 500;
const DEFAULT_MAX_IN_FLIGHT = 8;

/**
 * The delivery loop every replica runs: it claims due attempts one at a time (the claim is the
 * lease that keeps two replicas from making one attempt at once), makes up to a few at a time,
 * and sleeps until the next poll or a nudge. A store that fails leaves the loop polling.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { deps, deliveries, logger } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let nudged = false;
  let wake: (() => void) | undefined;
  let failures = 0;

  const nudge = () => {
    nudged = true;
    wake?.();
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      wake = done;
    });

  const claimAndStart = async (): Promise<boolean> => {
    const now = deps.now();
    const claimed = await deliveries.claimDue(now, new Date(now.getTime() + options.claimMs));
    if (!claimed) return false;
    const work: Promise<void> = makeAttempt(deps, claimed)
      .catch((error: unknown) =>
        logger.error(
          { err: error, deliveryId: claimed._id, eventId: claimed.eventId, webhookEndpointId: claimed.webhookEndpointId, attempt: claimed.attempt },
          "webhook attempt could not be recorded; it is made again once its claim runs out",
        ),
      )
      .finally(() => {
        inFlight.delete(work);
        nudge();
      });
    inFlight.add(work);
    return true;
  };

  const loop = async () => {
    while (!stopped) {
      nudged = false;
      try {
        while (!stopped && inFlight.size < maxInFlight && (await claimAndStart()));
        failures = 0;
      } catch (error) {
        // Said once per outage, not at every poll.
        if (failures++ === 0) logger.warn({ err: error }, "due webhook attempts cannot be claimed; retrying");
      }
      if (!stopped && !nudged) await sleep();
    }
  };
  const running = loop();

  return {
    nudge,
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await Promise.all([...inFlight]);
    },
  };
}

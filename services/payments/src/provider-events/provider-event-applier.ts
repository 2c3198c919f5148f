import { AppError, type Logger } from "@bayad/kit";
import { applyProviderEvent, type ApplyDeps } from "./apply-provider-event.js";
import type { ProviderEventsRepository } from "./provider-events-repository.js";

export interface ProviderEventApplier {
  /** Applies what is due now (and anything that arrives meanwhile); resolves when nothing due is left. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** After this many failed attempts (~a day with the back-off below) an event is given up and logged as an error. */
const MAX_ATTEMPTS = 20;
const backoffMs = (attempts: number) => Math.min(2 ** attempts * 1_000, 600_000);

/**
 * Applies stored provider events: at once when one arrives (`drain`), and every `intervalMs` for
 * those whose earlier attempt failed (a report that came before the resource could take it, a
 * store fault). Each replica runs one; applying is idempotent, so two applying one event at once
 * move the resource once.
 */
export function startProviderEventApplier(options: {
  deps: ApplyDeps;
  events: ProviderEventsRepository;
  intervalMs: number;
  logger: Logger;
  now: () => Date;
}): ProviderEventApplier {
  const { events, logger, now } = options;
  let running: Promise<void> | undefined;
  let again = false;

  async function round(): Promise<void> {
    for (;;) {
      const due = await events.findDue(now(), 50);
      if (due.length === 0) return;
      for (const record of due) {
        try {
          const result = await applyProviderEvent(options.deps, record);
          await events.settle(record._id, result, now());
        } catch (error) {
          const reason = error instanceof AppError ? error.code : error instanceof Error ? error.message : String(error);
          const attempts = record.attempts + 1;
          const next = attempts >= MAX_ATTEMPTS ? undefined : new Date(now().getTime() + backoffMs(attempts));
          const log = { providerAccountId: record.providerAccountId, eventId: record.eventId, type: record.type, attempts, reason };
          if (next) logger.warn(log, "provider event not applied yet; will try again");
          else logger.error(log, "provider event given up after repeated failures");
          await events.attemptFailed(record._id, reason, next, now());
        }
      }
    }
  }

  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await round();
      } while (again);
    })()
      .catch((error: unknown) => logger.error({ err: error }, "provider event applier failed"))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const timer = setInterval(() => void drain(), options.intervalMs);
  timer.unref();
  return {
    drain,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

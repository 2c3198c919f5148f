import { createLease } from "@bayad/store";
import { redriveUnacknowledgedRefunds, type RefundsDeps } from "./refunds.js";

export interface RefundSweepOptions {
  deps: RefundsDeps;
  intervalMs: number;
  /**
   * How long a refund may wait for its provider call before the sweep presumes it lost (and how
   * long the sweep's lease lasts unrenewed, so a crashed sweeper's replica is replaced).
   */
  leaseMs: number;
  /** Who this sweep is when it holds the lease: unique per process. */
  holderId: string;
}

export interface RefundSweep {
  /** One round: re-drives what is due if this sweep holds the lease; returns how many the provider acknowledged. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

const REFUND_SWEEP_LEASE = "refund-sweep";

/**
 * Re-drives refunds whose provider call was lost (see redriveUnacknowledgedRefunds). Every
 * replica runs one and the holder of the `refund-sweep` lease does the work, like the billing
 * clock; two sweepers at once would still refund once, since both ask with the refund's key.
 */
export function startRefundSweep(options: RefundSweepOptions): RefundSweep {
  const { deps, holderId, leaseMs } = options;
  const lease = createLease(deps.store, REFUND_SWEEP_LEASE);
  let last: Promise<unknown> = Promise.resolve();
  let running = false;

  async function round(): Promise<number> {
    if (!(await lease.acquire(holderId, new Date(), leaseMs))) return 0;
    return redriveUnacknowledgedRefunds(deps, leaseMs);
  }

  function tick(): Promise<number> {
    const next = last.catch(() => undefined).then(round);
    last = next;
    return next;
  }

  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((error: unknown) => deps.logger.error({ err: error }, "refund sweep failed"))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();

  return {
    tick,
    async stop() {
      clearInterval(timer);
      await last.catch(() => undefined);
      await lease.release(holderId).catch((error: unknown) => deps.logger.warn({ err: error }, "refund sweep lease not released"));
    },
  };
}

import type { Middleware } from "koa";

/**
 * Holds each finished response until the event loop has run the rest of the I/O callbacks of
 * its turn, then lets every response of that turn be written back to back (flush consolidation,
 * as Netty's FlushConsolidationHandler does).
 *
 * Why: writing a response to a peer that is asleep waiting for it costs the writer a wake-up of
 * that peer in the kernel (on a virtual machine an interrupt to another vCPU) for every write
 * when each response goes out alone. Written together, the first write wakes the peer and
 * the rest find it awake. Under load the gateway answers many connections in one turn, so this
 * is most of that cost saved (bench/README.md, "Fixed: one wake-up per response"); with one
 * request in flight the wait is one `setImmediate`, a few microseconds.
 *
 * A response never waits for another request's work: only for the callbacks already running in
 * this turn, never for a later one.
 */
export function coalesceResponses(): Middleware {
  const turn = new TurnEnd();
  return async function coalesceResponses(_ctx, next) {
    try {
      await next();
    } finally {
      await turn.reached();
    }
  };
}

/** Resolves everyone who asked during one event-loop turn at its check phase, together. */
class TurnEnd {
  private waiting: Array<() => void> = [];

  reached(): Promise<void> {
    return new Promise((resolve) => {
      if (this.waiting.push(resolve) === 1) setImmediate(this.release);
    });
  }

  private readonly release = () => {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  };
}

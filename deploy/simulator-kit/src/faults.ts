import type { IncomingMessage } from "node:http";

/** What a fault plays instead of an answer: an error status, "timeout" (the socket held) or "reset" (destroyed). */
export type FaultStatus = number | "timeout" | "reset";

/** What every simulator's fault has: which requests it matches (method, path prefix) and for how many. */
export interface FaultMatch {
  method?: string;
  path?: string;
  times?: number;
}

/** Whether `status` is one a fault may play: 400–599, "timeout" or "reset". */
export function isFaultStatus(status: unknown): status is FaultStatus {
  return status === "timeout" || status === "reset" || (typeof status === "number" && Number.isInteger(status) && status >= 400 && status <= 599);
}

/**
 * Faults waiting for the API requests they match, each for its next `times` (default 1). `check`
 * refuses a fault in the simulator's own error shape before it is armed; what a fault plays is
 * the simulator's too.
 */
export class Faults<F extends FaultMatch> {
  private armed: Array<{ fault: F; left: number }> = [];

  constructor(private readonly check: (fault: F) => void) {}

  add(fault: F): void {
    this.check(fault);
    this.armed.push({ fault: { ...fault }, left: fault.times ?? 1 });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first fault matching this request (method, and path prefix), used up by one. */
  take(method: string, path: string): F | undefined {
    const armed = this.armed.find(
      ({ fault: f }) => (!f.method || f.method.toUpperCase() === method.toUpperCase()) && (!f.path || path.startsWith(f.path)),
    );
    if (!armed) return undefined;
    armed.left -= 1;
    if (armed.left === 0) this.armed = this.armed.filter((a) => a !== armed);
    return armed.fault;
  }

  /** The armed faults, each with the requests it has left as `times`. */
  list(): F[] {
    return this.armed.map(({ fault, left }) => ({ ...fault, times: left }));
  }
}

/**
 * Plays a socket fault: "reset" destroys the socket; "timeout" holds it open without an answer
 * until the client gives up or the simulator closes. False for a status the simulator answers itself.
 */
export function playSocketFault(status: FaultStatus, req: IncomingMessage): status is "timeout" | "reset" {
  if (status === "reset") {
    req.socket.destroy();
    return true;
  }
  return status === "timeout";
}

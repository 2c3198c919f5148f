import type { SimulatorState } from "./state.js";

/** Timers the simulator starts itself (a request or session running out), cleared when it closes. */
export class Timers {
  private readonly handles = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): void {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      run();
    }, ms);
    handle.unref();
    this.handles.add(handle);
  }

  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}

/** Switches a control can turn, for behaviour the facts leave UNCONF. */
export interface Settings {
  /** Whether `idempotency-key` is honoured on POST /v3/payment_requests (UNCONF; default false: ignored). */
  idempotentPaymentRequests: boolean;
  /** How long after create a PENDING refund settles SUCCEEDED by itself; null: only by control. */
  refundSettlementMs: number | null;
  /** How long a new payment request waits for the payer; null: the channel's own (15 min) [O]. Shorter for tests and demos. */
  paymentRequestExpiryMs: number | null;
}

/** What every handler works on. */
export interface Simulation {
  state: SimulatorState;
  timers: Timers;
  settings: Settings;
}

import type { Timers } from "@bayad/simulator-kit";
import type { SimulatorState } from "./state.js";

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

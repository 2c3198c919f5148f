import type { Timers } from "@bayad/simulator-kit";
import type { KeyRing } from "./auth.js";
import type { Account, SimulatorState } from "./state.js";

/** What every handler works on. */
export interface Simulation {
  state: SimulatorState;
  timers: Timers;
  keys: KeyRing;
}

/** An authenticated API request, its body's `data.attributes` and the path's ids. */
export interface ApiRequest {
  account: Account;
  attributes: Record<string, unknown>;
  query: URLSearchParams;
  params: string[];
}

export type ApiHandler = (sim: Simulation, req: ApiRequest) => unknown;

import type { KeyRing } from "./auth.js";
import type { Account, SimulatorState } from "./state.js";

/** Timers the simulator starts itself (a QR Ph code running out), cleared when it closes. */
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

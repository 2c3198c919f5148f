import { PaymongoSimulatorError } from "./api-error.js";

export interface Fault {
  method?: string;
  path?: string;
  status: number | "timeout" | "reset";
  times?: number;
  afterProcessing?: boolean;
  /** The error code a status fault answers with (default: one saying what the status stands for). */
  code?: string;
}

interface ArmedFault extends Fault {
  left: number;
}

/** Faults waiting for the API requests they match, each for its next `times` requests. */
export class Faults {
  private armed: ArmedFault[] = [];

  add(fault: Fault): void {
    const { status } = fault ?? {};
    const statusOk = status === "timeout" || status === "reset" || (Number.isInteger(status) && (status) >= 400 && (status) <= 599);
    const times = fault?.times ?? 1;
    if (!statusOk || !Number.isInteger(times) || times < 1) {
      throw new PaymongoSimulatorError(400, [
        {
          code: "parameter_invalid",
          detail: 'A fault needs status 400–599, "timeout" or "reset", and times ≥ 1.',
          source: { pointer: statusOk ? "times" : "status", attribute: statusOk ? "times" : "status" },
        },
      ]);
    }
    this.armed.push({ ...fault, left: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first fault matching this request (method, and path prefix), used up by one. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.armed.find(
      (f) => (!f.method || f.method.toUpperCase() === method.toUpperCase()) && (!f.path || path.startsWith(f.path)),
    );
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left === 0) this.armed = this.armed.filter((f) => f !== fault);
    return fault;
  }

  list(): Fault[] {
    return this.armed.map(({ left, ...fault }) => ({ ...fault, times: left }));
  }
}

/** What an injected status answers (but 429, plain text as PayMongo's): PayMongo's error shape, with a code saying what it stands for. */
export function faultBody(status: number, injected?: string): { errors: Array<{ code: string; detail: string }> } {
  const code = injected ?? (status >= 500 ? "internal_server_error" : "simulated_fault");
  return { errors: [{ code, detail: `The PayMongo simulator answered ${status} as a fault was injected.` }] };
}

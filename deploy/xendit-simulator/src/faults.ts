import { validationError } from "./api-error.js";

/**
 * A failure played instead of an API answer. `status`: an error status answered in Xendit's shape
 * (`code` its error_code), "timeout" (the socket is held without an answer) or "reset" (the
 * socket is destroyed). `afterProcessing`: the request takes effect first and only its answer is
 * lost — the case an adapter must reconcile. `delayMs` alone: the answer comes late.
 */
export interface Fault {
  method?: string;
  path?: string;
  status?: number | "timeout" | "reset";
  code?: string;
  times?: number;
  afterProcessing?: boolean;
  delayMs?: number;
}

interface Armed extends Fault {
  left: number;
}

/** Faults waiting for the API requests they match (method, and path prefix), each for its next `times`. */
export class Faults {
  private armed: Armed[] = [];

  add(fault: Fault): void {
    const { status, times = 1, delayMs } = fault;
    const statusOk = status === undefined || status === "timeout" || status === "reset" || (Number.isInteger(status) && status >= 400 && status <= 599);
    const delayOk = delayMs === undefined || (Number.isInteger(delayMs) && delayMs >= 0);
    if (!statusOk || !delayOk || (status === undefined && delayMs === undefined) || !Number.isInteger(times) || times < 1) {
      throw validationError('A fault needs a status 400–599, "timeout" or "reset", and/or delayMs ≥ 0; times ≥ 1.');
    }
    this.armed.push({ ...fault, left: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first fault matching this request, used up by one. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.armed.find((f) => (!f.method || f.method.toUpperCase() === method.toUpperCase()) && (!f.path || path.startsWith(f.path)));
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left === 0) this.armed = this.armed.filter((f) => f !== fault);
    return fault;
  }

  list(): Fault[] {
    return this.armed.map(({ left, ...fault }) => ({ ...fault, times: left }));
  }
}

/** What an injected status answers: Xendit's error shape, SERVER_ERROR for a 5xx unless `code` says otherwise [O codes]. */
export function faultBody(status: number, code?: string): { error_code: string; message: string } {
  return {
    error_code: code ?? (status === 429 ? "RATE_LIMIT_EXCEEDED" : status >= 500 ? "SERVER_ERROR" : "API_VALIDATION_ERROR"),
    message: `The Xendit simulator answered ${status} as a fault was injected.`,
  };
}

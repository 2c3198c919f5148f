import { isFaultStatus, type FaultMatch, type FaultStatus } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";

export interface Fault extends FaultMatch {
  status: FaultStatus;
  afterProcessing?: boolean;
  /** The error code a status fault answers with (default: one saying what the status stands for). */
  code?: string;
}

/** Refuses a fault without a status 400–599, "timeout" or "reset", or with times < 1: a 400 naming the attribute. */
export function checkFault(fault: Fault): void {
  const statusOk = isFaultStatus(fault?.status);
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
}

/** What an injected status answers (but 429, plain text as PayMongo's): PayMongo's error shape, with a code saying what it stands for. */
export function faultBody(status: number, injected?: string): { errors: Array<{ code: string; detail: string }> } {
  const code = injected ?? (status >= 500 ? "internal_server_error" : "simulated_fault");
  return { errors: [{ code, detail: `The PayMongo simulator answered ${status} as a fault was injected.` }] };
}

import { isFaultStatus, type FaultMatch, type FaultStatus } from "@bayad/simulator-kit";
import { validationError } from "./api-error.js";

/**
 * A failure played instead of an API answer. `status`: an error status answered in Xendit's shape
 * (`code` its error_code), "timeout" (the socket is held without an answer) or "reset" (the
 * socket is destroyed). `afterProcessing`: the request takes effect first and only its answer is
 * lost — the case an adapter must reconcile. `delayMs` alone: the answer comes late.
 */
export interface Fault extends FaultMatch {
  status?: FaultStatus;
  code?: string;
  afterProcessing?: boolean;
  delayMs?: number;
}

/** Refuses a fault with neither a status (400–599, "timeout", "reset") nor a delayMs ≥ 0, or with times < 1. */
export function checkFault(fault: Fault): void {
  const { status, times = 1, delayMs } = fault;
  const statusOk = status === undefined || isFaultStatus(status);
  const delayOk = delayMs === undefined || (Number.isInteger(delayMs) && delayMs >= 0);
  if (!statusOk || !delayOk || (status === undefined && delayMs === undefined) || !Number.isInteger(times) || times < 1) {
    throw validationError('A fault needs a status 400–599, "timeout" or "reset", and/or delayMs ≥ 0; times ≥ 1.');
  }
}

/** What an injected status answers: Xendit's error shape, SERVER_ERROR for a 5xx unless `code` says otherwise [O codes]. */
export function faultBody(status: number, code?: string): { error_code: string; message: string } {
  return {
    error_code: code ?? (status === 429 ? "RATE_LIMIT_EXCEEDED" : status >= 500 ? "SERVER_ERROR" : "API_VALIDATION_ERROR"),
    message: `The Xendit simulator answered ${status} as a fault was injected.`,
  };
}

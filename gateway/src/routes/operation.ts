import type { CallOptions } from "@connectrpc/connect";
import { callerCallOptions, fromConnectError, type CallerContext } from "@bayad/kit";
import { successEnvelope } from "../envelope.js";
import type { ValidatedInput } from "../openapi/request-validator.js";
import type { StoredResponse } from "@bayad/idempotency";

/** What a route handler gets besides its validated input. */
export interface OperationContext {
  caller: CallerContext;
  /** Options for every rpc: the caller as metadata and the deadline. */
  call: CallOptions;
}

export interface OperationResult {
  status: number;
  data: unknown;
}

/** Maps one REST operation to its rpc calls: validated input → request → response data. */
export type OperationHandler = (input: ValidatedInput, context: OperationContext) => Promise<OperationResult>;

/** Handlers by OpenAPI operationId. */
export type OperationHandlers = Record<string, OperationHandler>;

export type OperationRunner = (operationId: string, input: ValidatedInput, caller: CallerContext) => Promise<StoredResponse>;

/**
 * Runs an operation's handler and wraps its data in the envelope. Whatever an rpc throws comes
 * back as the catalogue's AppError, so callers see one error type.
 */
export function createOperationRunner(handlers: OperationHandlers, rpcTimeoutMs: number): OperationRunner {
  return async (operationId, input, caller) => {
    const handler = handlers[operationId];
    if (!handler) throw new Error(`no handler for operation ${operationId}`);
    try {
      const result = await handler(input, { caller, call: callerCallOptions(caller, rpcTimeoutMs) });
      return { status: result.status, body: successEnvelope(result.data) };
    } catch (error) {
      throw fromConnectError(error);
    }
  };
}

import type { CallOptions } from "@connectrpc/connect";
import { callerCallOptions, fromConnectError, type CallerContext } from "@bayad/kit";
import { successEnvelope } from "../envelope.js";
import type { ValidatedInput } from "../openapi/request-validator.js";
import { operationInput, type OperationId, type OperationInput } from "../openapi/operation-types.js";
import type { StoredResponse } from "@bayad/idempotency";

/** What a route handler gets besides its validated input. */
export interface OperationContext {
  caller: CallerContext;
  /** Options for every rpc: the caller as metadata and the deadline. */
  call: CallOptions;
}

/** The caller an operation runs for. */
export type OperationCaller = CallerContext;

export interface OperationResult {
  status: number;
  data: unknown;
}

/**
 * Maps one REST operation to its rpc calls: validated input → request → response data. Its input
 * is typed by the operation's schemas in the OpenAPI document (openapi/operation-types.ts).
 */
export type OperationHandler<Op extends OperationId> = (input: OperationInput<Op>, context: OperationContext) => Promise<OperationResult>;

/** Handlers by OpenAPI operationId; a key that is not an operation of the document does not compile. */
export type OperationHandlers = { [Op in OperationId]?: OperationHandler<Op> };

export type OperationRunner = (operationId: string, input: ValidatedInput, caller: OperationCaller) => Promise<StoredResponse>;

/**
 * Runs an operation's handler and wraps its data in the envelope. Whatever an rpc throws comes
 * back as the catalogue's AppError, so callers see one error type.
 */
export function createOperationRunner(handlers: OperationHandlers, rpcTimeoutMs: number): OperationRunner {
  return async (operationId, input, caller) => {
    if (!hasHandler(handlers, operationId)) throw new Error(`no handler for operation ${operationId}`);
    try {
      const result = await runHandler(handlers, operationId, input, { caller, call: callerCallOptions(caller, rpcTimeoutMs) });
      return { status: result.status, body: successEnvelope(result.data) };
    } catch (error) {
      throw fromConnectError(error);
    }
  };
}

/** The handlers' own keys are operationIds: their type admits no other. */
export function hasHandler(handlers: OperationHandlers, operationId: string): operationId is OperationId {
  return Object.hasOwn(handlers, operationId);
}

async function runHandler<Op extends OperationId>(
  handlers: OperationHandlers,
  operationId: Op,
  input: ValidatedInput,
  context: OperationContext,
): Promise<OperationResult> {
  const handler: OperationHandler<Op> | undefined = handlers[operationId];
  if (!handler) throw new Error(`no handler for operation ${operationId}`);
  return handler(operationInput(operationId, input), context);
}

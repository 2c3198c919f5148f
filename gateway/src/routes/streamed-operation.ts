import type { Readable } from "node:stream";
import type { Middleware } from "koa";
import { callerCallOptions, fromConnectError, type CallerContext, type Logger } from "@bayad/kit";
import type { Caller } from "../auth/caller.js";
import type { OperationSpec } from "../openapi/document.js";
import type { ValidatedInput } from "../openapi/request-validator.js";
import { operationInput, type OperationId, type OperationInput } from "../openapi/operation-types.js";
import type { OperationContext } from "./operation.js";

/** A response that is not a JSON envelope but a file, written while it is read. */
export interface StreamedResult {
  contentType: string;
  headers: Record<string, string>;
  /** Pulled by Koa as the client reads: a batch is asked for only when the last one is written. */
  body: Readable;
}

/**
 * An operation that answers a stream. It returns only once its first part is in hand, so that
 * anything that fails before it (validation, a service refusing) is still a JSON error envelope.
 * What fails later ends the transfer instead (executeStreamedOperation).
 */
export type StreamedOperationHandler<Op extends OperationId> = (
  input: OperationInput<Op>,
  context: OperationContext & { signal: AbortSignal },
) => Promise<StreamedResult>;

export type StreamedOperationHandlers = { [Op in OperationId]?: StreamedOperationHandler<Op> };

export function hasStreamedHandler(handlers: StreamedOperationHandlers, operationId: string): operationId is OperationId {
  return Object.hasOwn(handlers, operationId);
}

/**
 * The last step of a streamed operation. Its rpc gets `timeoutMs` (RECORDS_EXPORT_TIMEOUT_MS),
 * not the unary RPC_TIMEOUT_MS: an export may run for minutes. Once the status and the first
 * bytes are out, an error can no longer become an envelope; the response is destroyed (no final
 * chunk), so the client sees a broken transfer rather than a file that looks whole but is short.
 * A client that goes away aborts the rpc.
 */
export function executeStreamedOperation(
  spec: OperationSpec,
  handlers: StreamedOperationHandlers,
  timeoutMs: number,
  logger: Logger,
): Middleware {
  const operationId = spec.operationId;
  if (!hasStreamedHandler(handlers, operationId)) throw new Error(`no streamed handler for operation ${operationId}`);
  return async function executeStreamedOperation(ctx) {
    const caller = ctx.state.caller as Caller | undefined;
    const context: CallerContext = {
      projectId: caller?.projectId ?? "",
      environment: caller?.environment ?? "test",
      correlationId: ctx.state.correlationId as string,
    };
    const abort = new AbortController();
    const call = { ...callerCallOptions(context, timeoutMs), signal: abort.signal };
    let result: StreamedResult;
    try {
      result = await runStreamed(handlers, operationId, ctx.state.input as ValidatedInput, { caller: context, call, signal: abort.signal });
    } catch (error) {
      abort.abort();
      throw fromConnectError(error);
    }
    const { body } = result;
    body.once("error", (error) => {
      logger.error({ err: error, correlationId: context.correlationId, operationId }, "streamed response failed after it began");
      ctx.res.destroy();
    });
    // Finished or cut off by the client: either way nothing more is wanted from the service.
    body.once("close", () => abort.abort());
    ctx.status = 200;
    ctx.type = result.contentType;
    for (const [name, value] of Object.entries(result.headers)) ctx.set(name, value);
    ctx.body = body;
  };
}

async function runStreamed<Op extends OperationId>(
  handlers: StreamedOperationHandlers,
  operationId: Op,
  input: ValidatedInput,
  context: OperationContext & { signal: AbortSignal },
): Promise<StreamedResult> {
  const handler: StreamedOperationHandler<Op> | undefined = handlers[operationId];
  if (!handler) throw new Error(`no streamed handler for operation ${operationId}`);
  return handler(operationInput(operationId, input), context);
}

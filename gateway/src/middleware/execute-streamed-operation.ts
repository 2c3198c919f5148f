import type { Middleware } from "koa";
import { callerCallOptions, fromConnectError, type CallerContext, type Logger } from "@bayad/kit";
import type { Caller } from "../auth/caller.js";
import type { OperationSpec } from "../openapi/document.js";
import type { ValidatedInput } from "../openapi/request-validator.js";
import { operationInput, type OperationId } from "../openapi/operation-types.js";
import type { OperationContext } from "../routes/operation.js";
import {
  hasStreamedHandler,
  type StreamedOperationHandler,
  type StreamedOperationHandlers,
  type StreamedResult,
} from "../routes/streamed-operation.js";

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
    // Koa's pipeline would destroy the response too; done here so it does not rest on that, and logged.
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

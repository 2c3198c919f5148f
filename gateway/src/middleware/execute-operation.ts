import type { Middleware } from "koa";
import type { OperationSpec } from "../openapi/document.js";
import type { ValidatedInput } from "../openapi/request-validator.js";
import type { Caller } from "../auth/caller.js";
import type { OperationCaller, OperationRunner } from "../routes/operation.js";
import type { IdempotentExecution } from "@bayad/idempotency";

/**
 * The last step of every operation: run its handler (through idempotency when it takes a key)
 * and send the envelope it produced.
 */
export function executeOperation(spec: OperationSpec, run: OperationRunner, idempotent: IdempotentExecution<ValidatedInput>): Middleware {
  return async function executeOperation(ctx) {
    const input = ctx.state.input as ValidatedInput;
    const caller = ctx.state.caller as Caller | undefined;
    const context: OperationCaller = {
      projectId: caller?.projectId ?? "",
      environment: caller?.environment ?? "test",
      correlationId: ctx.state.correlationId as string,
    };
    if (spec.idempotency) {
      const key = ctx.state.idempotencyKey as string;
      const { response, replayed } = await idempotent(spec, { ...context, idempotencyKey: key }, input);
      ctx.status = response.status;
      ctx.body = replayed ? asReplay(response.body, context.correlationId) : response.body;
      if (replayed) ctx.set("Idempotent-Replayed", "true");
      return;
    }
    const response = await run(spec.operationId, input, context);
    ctx.status = response.status;
    ctx.body = response.body;
  };
}

/**
 * A replay repeats the first status, data and error; only the envelope's `meta` (which describes
 * this response, not the outcome) is this request's, so `meta.correlationId` always equals the
 * X-Correlation-Id header.
 */
function asReplay(body: unknown, correlationId: string): unknown {
  if (typeof body !== "object" || body === null || !("meta" in body)) return body;
  return { ...body, meta: { timestamp: new Date().toISOString(), correlationId } };
}

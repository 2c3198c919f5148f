import Koa from "koa";
import type Router from "@koa/router";
import type { Logger, RateLimitLeases, Registry } from "@bayad/kit";
import type { OperationSpec } from "./openapi/document.js";
import type { RequestValidator, ValidatedInput } from "./openapi/request-validator.js";
import { hasHandler, type OperationHandlers, type OperationRunner } from "./routes/operation.js";
import type { IdempotentExecution } from "@bayad/idempotency";
import { AppError, tracingEnabled } from "@bayad/kit";
import { coalesceResponses } from "./middleware/coalesce-responses.js";
import { correlationId } from "./middleware/correlation-id.js";
import { tracing } from "./middleware/tracing.js";
import { httpMetrics } from "./middleware/http-metrics.js";
import { errorHandler } from "./middleware/error-handler.js";
import { routeNotFound } from "./middleware/route-not-found.js";
import { authenticate, type Authenticators } from "./middleware/authenticate.js";
import { rateLimit, type RateLimitSettings } from "./middleware/rate-limit.js";
import { jsonBody } from "./middleware/json-body.js";
import { idempotencyKey } from "./middleware/idempotency-key.js";
import { validateRequest } from "./middleware/validate-request.js";
import { executeOperation } from "./middleware/execute-operation.js";
import { RouteTable } from "./routes/route-table.js";
import { hasStreamedHandler, type StreamedOperationHandlers } from "./routes/streamed-operation.js";
import { executeStreamedOperation } from "./middleware/execute-streamed-operation.js";

export interface GatewayAppDeps {
  operations: OperationSpec[];
  validators: Map<string, RequestValidator>;
  handlers: OperationHandlers;
  run: OperationRunner;
  /** Operations that answer a file written while it is read (the records export), and their rpcs' deadline. */
  streamed?: { handlers: StreamedOperationHandlers; timeoutMs: number };
  idempotent: IdempotentExecution<ValidatedInput>;
  authenticators: Authenticators;
  /** Charges every request of a project credential (RATE_LIMIT_*), after authentication. */
  rateLimits: { leases: RateLimitLeases; settings: RateLimitSettings };
  bodyLimitBytes: number;
  logger: Logger;
  /** Where request counts and latencies go; none when absent. */
  metrics?: Registry;
  /** Routes outside the API contract: the document itself, the docs page, the JWKS. */
  extraRoutes?: (router: Router) => void;
}

/**
 * The gateway's Koa app. Every operation of the OpenAPI document is mounted with the same
 * pipeline: authenticate → rate limit (project credentials) → read the JSON body →
 * Idempotency-Key → validate → execute. An operation whose service is not built yet still checks
 * its input, then answers 501.
 */
export function createGatewayApp(deps: GatewayAppDeps): Koa {
  const app = new Koa();
  app.silent = true;
  const routes = new RouteTable();

  for (const spec of deps.operations) {
    const validator = deps.validators.get(spec.operationId);
    if (!validator) throw new Error(`no validator for ${spec.operationId}`);
    const pipeline: Koa.Middleware[] = [authenticate(spec, deps.authenticators)];
    if (spec.auth === "bearer") pipeline.push(rateLimit(spec, deps.rateLimits.leases, deps.rateLimits.settings));
    if (spec.method !== "GET") pipeline.push(jsonBody(deps.bodyLimitBytes));
    if (spec.idempotency) pipeline.push(idempotencyKey());
    pipeline.push(validateRequest(validator));
    const streamed = deps.streamed;
    pipeline.push(
      streamed && hasStreamedHandler(streamed.handlers, spec.operationId)
        ? executeStreamedOperation(spec, streamed.handlers, streamed.timeoutMs, deps.logger)
        : hasHandler(deps.handlers, spec.operationId)
          ? executeOperation(spec, deps.run, deps.idempotent)
          : async () => {
              throw new AppError("NOT_IMPLEMENTED", `${spec.operationId} is not available yet.`);
            },
    );
    routes.register(spec.routerPath, [spec.method], pipeline, { name: spec.operationId });
  }
  deps.extraRoutes?.(routes.general);

  // Outermost, so the span holds the whole request; absent when traces are off.
  if (tracingEnabled()) app.use(tracing());
  if (deps.metrics) app.use(httpMetrics(deps.metrics));
  // Inside the metrics, so a request's duration runs until its response may be written.
  app.use(coalesceResponses());
  app.use(correlationId());
  app.use(errorHandler(deps.logger));
  app.use(routeNotFound(deps.operations));
  app.use(routes.routes());
  return app;
}

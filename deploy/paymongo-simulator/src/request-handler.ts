import type { IncomingMessage, ServerResponse } from "node:http";
import { playSocketFault, sendJson, type Faults } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";
import { handleApiRequest } from "./api-routes.js";
import { handleControlRequest } from "./control-routes.js";
import { faultBody, type Fault } from "./faults.js";
import type { IdempotencyStore } from "./idempotency-store.js";
import type { PaymongoSimulator } from "./index.js";
import { handlePageRequest } from "./pages.js";
import { sendTooManyRequests, type RateLimit } from "./rate-limit.js";
import type { Simulation } from "./simulation.js";
import type { WebhookDeliveries } from "./webhook-deliveries.js";

export interface HandlerDeps {
  sim: Simulation;
  simulator: PaymongoSimulator;
  deliveries: WebhookDeliveries;
  faults: Faults<Fault>;
  idempotency: IdempotencyStore;
  rateLimit: RateLimit;
  log: (line: string) => void;
}

/** Routes `/v1/…` to the API (where faults apply), `/__simulator/…` to the controls, the rest to the pages. */
export function createRequestHandler(deps: HandlerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://simulator");
    let work: Promise<void>;
    if (url.pathname.startsWith("/v1/")) work = handleApi(deps, req, res, url);
    else if (url.pathname.startsWith("/__simulator/")) work = answer(deps, res, () => handleControlRequest(deps, req, url));
    else work = handlePageRequest(deps.sim, req, res, url);
    work.catch((err: unknown) => {
      deps.log(`request ${req.method} ${url.pathname} failed: ${(err as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, { errors: [{ code: "internal_error", detail: "The simulator failed." }] });
      else res.destroy();
    });
  };
}

async function handleApi(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  // A request over its key's rate is turned away before anything else, and nothing happens.
  if (deps.rateLimit.exceeded(req.headers.authorization)) return sendTooManyRequests(res);
  const fault = deps.faults.take(req.method ?? "GET", url.pathname);
  if (fault && !fault.afterProcessing) return applyFault(fault, req, res);
  const [status, body] = await outcome(deps, () => handleApiRequest(deps.sim, req, url, deps.idempotency));
  // afterProcessing: the request took effect (its Idempotency-Key result is stored); only its answer is lost.
  if (fault) return applyFault(fault, req, res);
  sendJson(res, status, body);
}

async function answer(deps: HandlerDeps, res: ServerResponse, run: () => Promise<unknown>): Promise<void> {
  const [status, body] = await outcome(deps, run);
  sendJson(res, status, body);
}

async function outcome(deps: HandlerDeps, run: () => Promise<unknown>): Promise<[number, unknown]> {
  try {
    return [200, await run()];
  } catch (err) {
    if (err instanceof PaymongoSimulatorError) return [err.status, err.toBody()];
    deps.log(`internal error: ${(err as Error).stack ?? String(err)}`);
    return [500, { errors: [{ code: "internal_error", detail: "The simulator failed." }] }];
  }
}

function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
  if (playSocketFault(fault.status, req)) return;
  // PayMongo's 429 is plain text, whatever caused it.
  if (fault.status === 429) return sendTooManyRequests(res);
  sendJson(res, fault.status, faultBody(fault.status, fault.code));
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { playSocketFault, sendJson } from "@bayad/simulator-kit";
import { validationError, XenditSimulatorError } from "./api-error.js";
import { isApiPath, matchApiRoute, type ApiRoute } from "./api-routes.js";
import { authenticate, type Account } from "./auth.js";
import { handleControlRequest, type ControlDeps } from "./control-routes.js";
import { faultBody, type Fault } from "./faults.js";
import { parseObject, readBody } from "./http-io.js";
import type { Answer } from "./idempotency-store.js";
import { handlePageRequest } from "./pages.js";

/** The only `api-version` the Payments API v3 takes [O]. */
export const API_VERSION = "2024-11-11";

/** Routes the API (where rate limits and faults apply), `/__simulator/…` to the controls, the rest to the pages. */
export function createRequestHandler(deps: ControlDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://simulator");
    let work: Promise<void>;
    if (isApiPath(url.pathname)) work = handleApi(deps, req, res, url);
    else if (url.pathname.startsWith("/__simulator/")) work = answerControl(deps, req, res, url);
    else work = handlePageRequest(deps.sim, req, res, url);
    work.catch((err: unknown) => {
      deps.log(`request ${req.method} ${url.pathname} failed: ${(err as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, { error_code: "SERVER_ERROR", message: "The simulator failed." });
      else res.destroy();
    });
  };
}

async function handleApi(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? "GET";
  let account: Account;
  let matched: { route: ApiRoute; params: string[] };
  try {
    account = authenticate(req.headers.authorization);
    matched = matchApiRoute(method, url.pathname);
  } catch (err) {
    return sendAnswer(res, toAnswer(deps, err));
  }
  // Over the limit: turned away before anything else, and nothing happens.
  const rate = deps.rateLimit.count(account, matched.route.endpoint);
  if (rate.exceeded) {
    return sendJson(res, 429, { error_code: "RATE_LIMIT_EXCEEDED", message: "Too many requests to this endpoint; retry after Rate-Limit-Reset seconds." }, rate.headers);
  }
  const fault = deps.faults.take(method, url.pathname);
  if (fault?.delayMs) await sleep(fault.delayMs);
  if (fault?.status !== undefined && !fault.afterProcessing) return applyFault(fault, req, res);
  const answer = await process(deps, req, account, matched, url.searchParams).catch((err: unknown) => toAnswer(deps, err));
  // afterProcessing: the request took effect (and its idempotency-key answer is kept); only the answer is lost.
  if (fault?.status !== undefined) return applyFault(fault, req, res);
  sendAnswer(res, answer, rate.headers);
}

async function process(
  deps: ControlDeps,
  req: IncomingMessage,
  account: Account,
  { route, params }: { route: ApiRoute; params: string[] },
  query: URLSearchParams,
): Promise<Answer> {
  if (route.versioned && req.headers["api-version"] !== API_VERSION) {
    throw validationError(`The api-version header must be ${API_VERSION}.`);
  }
  const body = parseObject(await readBody(req));
  const work = async (): Promise<Answer> => {
    try {
      return { status: route.status, body: await route.run({ sim: deps.sim, account, body, params, query }) };
    } catch (err) {
      return toAnswer(deps, err);
    }
  };
  const key = req.headers["idempotency-key"];
  const honoured = route.idempotency === "always" || (route.idempotency === "by-setting" && deps.sim.settings.idempotentPaymentRequests);
  if (!honoured || typeof key !== "string" || key === "") return work();
  return deps.idempotency.run(`${account.owner} ${route.endpoint} ${key}`, body, work);
}

function toAnswer(deps: ControlDeps, err: unknown): Answer {
  if (err instanceof XenditSimulatorError) return { status: err.status, body: err.toBody() };
  deps.log(`internal error: ${(err as Error).stack ?? String(err)}`);
  return { status: 500, body: { error_code: "SERVER_ERROR", message: "The simulator failed." } };
}

function sendAnswer(res: ServerResponse, answer: Answer, headers: Record<string, string> = {}): void {
  sendJson(res, answer.status, answer.body, headers);
}

async function answerControl(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    sendJson(res, 200, await handleControlRequest(deps, req, url));
  } catch (err) {
    sendAnswer(res, toAnswer(deps, err));
  }
}

function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
  if (fault.status === undefined || playSocketFault(fault.status, req)) return;
  sendJson(res, fault.status, faultBody(fault.status, fault.code));
}

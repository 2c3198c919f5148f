import { createServer } from "node:http";
import Koa from "koa";
import Router from "@koa/router";
import { listOperations, loadOpenApiDocument } from "@bayad/gateway";
import { baselineResponse } from "./baseline-response.js";
import { serveBaseline } from "./serve-baseline.js";

/**
 * The framework's ceiling (a child process of the benchmark): Koa and @koa/router with every route
 * of the gateway's OpenAPI document, mounted in the gateway's order, each answering the baseline
 * JSON and nothing else. The gateway cannot serve faster than this; what separates the two is
 * the gateway's own work (authentication, validation, metrics, the rpc, the envelope).
 */
const app = new Koa();
const router = new Router();
for (const operation of listOperations(loadOpenApiDocument())) {
  router.register(operation.routerPath, [operation.method], [
    async function answer(ctx) {
      ctx.body = baselineResponse;
    },
  ]);
}
app.use(router.routes());

// Koa answers a failing request itself, so its handler's promise never rejects.
const handle = app.callback();
serveBaseline(createServer((request, response) => void handle(request, response)));

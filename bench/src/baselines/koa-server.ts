import { createServer } from "node:http";
import Koa from "koa";
import { baselineResponse } from "./baseline-response.js";
import { serveBaseline } from "./serve-baseline.js";

/**
 * The bare Koa baseline (a child process of the benchmark): the gateway is a Koa application, so
 * this row separates what Koa itself costs from what the gateway's middleware, the gRPC hop and
 * the services add.
 */
const app = new Koa();
app.use(async function answer(ctx) {
  if (ctx.method === "GET" && ctx.path === "/") ctx.body = baselineResponse;
});

// Koa answers a failing request itself, so its handler's promise never rejects.
const handle = app.callback();
serveBaseline(createServer((request, response) => void handle(request, response)));

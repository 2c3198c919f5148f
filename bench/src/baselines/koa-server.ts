import type { AddressInfo } from "node:net";
import Koa from "koa";
import { announceFailure, announceReady, exitWithParent } from "../ipc.js";
import { baselineHost, baselineResponse, type BaselineReady } from "./baseline-response.js";

/**
 * The bare Koa baseline (a child process of the benchmark): the gateway is a Koa application, so
 * this row separates what Koa itself costs from what the gateway's middleware, the gRPC hop and
 * the services add.
 */
const app = new Koa();
app.use(async function answer(ctx) {
  if (ctx.method === "GET" && ctx.path === "/") ctx.body = baselineResponse;
});

const server = app.listen(0, baselineHost, () => {
  const { port } = server.address() as AddressInfo;
  const ready: BaselineReady = { url: `http://${baselineHost}:${port}` };
  announceReady(ready);
});
server.on("error", (error) => announceFailure(error));
exitWithParent();

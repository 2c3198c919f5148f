import type { AddressInfo } from "node:net";
import Koa from "koa";
import Router from "@koa/router";
import { listOperations, loadOpenApiDocument } from "@bayad/gateway";
import { announceFailure, announceReady, exitWithParent } from "../ipc.js";
import { baselineHost, baselineResponse, type BaselineReady } from "./baseline-response.js";

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

const server = app.listen(0, baselineHost, () => {
  const { port } = server.address() as AddressInfo;
  const ready: BaselineReady = { url: `http://${baselineHost}:${port}` };
  announceReady(ready);
});
server.on("error", (error) => announceFailure(error));
exitWithParent();

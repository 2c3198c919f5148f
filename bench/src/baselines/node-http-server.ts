import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { announceFailure, announceReady, exitWithParent } from "../ipc.js";
import { baselineHost, baselineResponse, type BaselineReady } from "./baseline-response.js";

/**
 * The bare `node:http` baseline (a child process of the benchmark): the fastest a Node.js server
 * on this machine answers a small JSON, the denominator of every "vs node:http" ratio.
 */
const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/") {
    const body = JSON.stringify(baselineResponse);
    response.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
    response.end(body);
    return;
  }
  response.writeHead(404).end();
});

server.on("error", (error) => announceFailure(error));
server.listen(0, baselineHost, () => {
  const { port } = server.address() as AddressInfo;
  const ready: BaselineReady = { url: `http://${baselineHost}:${port}` };
  announceReady(ready);
});
exitWithParent();

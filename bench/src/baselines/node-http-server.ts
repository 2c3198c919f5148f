import { createServer } from "node:http";
import { baselineResponse } from "./baseline-response.js";
import { serveBaseline } from "./serve-baseline.js";

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

serveBaseline(server);

import { createServer, request as forward, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does with one request: pass it to the gateway, or fail it on purpose. */
export type Fault =
  | { kind: "pass" }
  | { kind: "status"; status: number; code: string; headers?: Record<string, string> }
  | { kind: "drop" };

/** One request that reached the proxy, and what was answered. */
export interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number | "dropped";
  code: string | undefined;
}

export interface FaultyProxy {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/**
 * A gateway that fails on purpose: a node:http proxy in front of the real one that asks
 * `faultFor` what to do with each request (the n-th, from 0), answering a fault itself (an error
 * envelope with the status and code, or a connection dropped without an answer) or passing the
 * request on. It records every request's Idempotency-Key and the answer's status and code.
 */
export async function startFaultyProxy(target: string, faultFor: (n: number, request: IncomingMessage) => Fault): Promise<FaultyProxy> {
  const seen: Seen[] = [];
  let count = 0;
  const server = createServer(async (request, response) => {
    const fault = faultFor(count++, request);
    const entry: Seen = {
      method: request.method ?? "",
      path: request.url ?? "",
      idempotencyKey: header(request, "idempotency-key"),
      status: "dropped",
      code: undefined,
    };
    seen.push(entry);
    const body = await readAll(request);
    if (fault.kind === "drop") {
      request.socket.destroy();
      return;
    }
    if (fault.kind === "status") {
      entry.status = fault.status;
      entry.code = fault.code;
      const envelope = { success: false, error: { code: fault.code, message: "injected by the test's proxy" }, meta: { correlationId: "proxy-fault" } };
      response.writeHead(fault.status, { "content-type": "application/json", ...fault.headers }).end(JSON.stringify(envelope));
      return;
    }
    await pass(target, request, body, response, entry);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function pass(target: string, request: IncomingMessage, body: Buffer, response: ServerResponse, entry: Seen): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, host: new URL(target).host };
    const upstream = forward(new URL(request.url ?? "/", target), { method: request.method, headers }, async (answer) => {
      const answered = await readAll(answer);
      entry.status = answer.statusCode ?? 0;
      try {
        entry.code = (JSON.parse(answered.toString()) as { error?: { code?: string } }).error?.code;
      } catch {
        entry.code = undefined;
      }
      response.writeHead(answer.statusCode ?? 502, answer.headers).end(answered);
      resolve();
    });
    upstream.on("error", reject);
    upstream.end(body);
  });
}

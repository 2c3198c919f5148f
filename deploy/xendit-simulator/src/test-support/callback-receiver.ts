import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  json: any;
}

/** A callback endpoint for the tests: records every request and answers the statuses given, the last one from then on. */
export async function startCallbackReceiver() {
  const received: ReceivedCallback[] = [];
  let answers = [200];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      res.writeHead(answer ?? 200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks/xendit`,
    received,
    respondWith(...statuses: number[]) {
      answers = statuses;
    },
    events: () => received.map((r) => r.json.event as string),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type CallbackReceiver = Awaited<ReturnType<typeof startCallbackReceiver>>;

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { startHttpServer } from "@bayad/simulator-kit";

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  json: any;
}

/** A callback endpoint for the tests: records every request and answers the statuses given, the last one from then on. */
export async function startCallbackReceiver() {
  const received: ReceivedCallback[] = [];
  let answers = [200];
  const { server, url, close } = await startHttpServer("127.0.0.1", 0);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      res.writeHead(answer ?? 200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  return {
    url: `${url}/callbacks/xendit`,
    received,
    respondWith(...statuses: number[]) {
      answers = statuses;
    },
    events: () => received.map((r) => r.json.event as string),
    close,
  };
}

export type CallbackReceiver = Awaited<ReturnType<typeof startCallbackReceiver>>;

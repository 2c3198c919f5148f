import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { startHttpServer } from "@bayad/simulator-kit";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: any;
}

/**
 * A webhook endpoint for the tests: records every request and answers `status` (or never, with
 * "hang"). `waitFor(n)` resolves when n requests have arrived.
 */
export async function startWebhookReceiver(path = "/hooks/paymongo") {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let answer: number | "hang" = 200;
  const { server, url, close } = await startHttpServer("127.0.0.1", 0);
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, rawBody, json: JSON.parse(rawBody) });
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
      if (answer === "hang") return;
      res.writeHead(answer, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  return {
    url: `${url}${path}`,
    received,
    respondWith(status: number | "hang") {
      answer = status;
    },
    types: () => received.map((r) => r.json.data.attributes.type as string),
    waitFor(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close,
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

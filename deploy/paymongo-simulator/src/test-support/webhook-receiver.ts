import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

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
  const server = createServer((req, res) => {
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    respondWith(status: number | "hang") {
      answer = status;
    },
    types: () => received.map((r) => r.json.data.attributes.type as string),
    waitFor(count: number): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got: its headers and its raw body, as a consumer's handler sees them. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/**
 * A consumer's webhook endpoint on a loopback port: it keeps every request and answers each with
 * the next status of `answers` (then 200). Tests read what arrived and script failures.
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Statuses for the next requests, in order; once used up the receiver answers 200. */
  answers: number[];
  /** The requests carrying `webhook-id` = `eventId`. */
  deliveriesOf(eventId: string): ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/webhooks"): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const status = answers.shift() ?? 200;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answers,
    deliveriesOf: (eventId) => received.filter((delivery) => delivery.headers["webhook-id"] === eventId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

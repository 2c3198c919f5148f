import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got, as a consumer's handler sees it. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

/** A consumer's webhook endpoint on a loopback port; it answers each request with the next of `answers` (then 200). */
export interface Receiver {
  url: string;
  received: Received[];
  answers: number[];
  /** The requests with webhook-id `eventId`. */
  deliveriesOf(eventId: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(path = "/hooks"): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = createServer((request, response) => {
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

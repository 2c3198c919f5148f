import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { announceFailure, announceReady, answerRequests, exitWithParent } from "./ipc.js";

/**
 * A consumer's webhook endpoint (a child process of the benchmark, so that autocannon's busy
 * event loop does not delay the moment a delivery is seen): it answers every POST 204 and keeps
 * what a consumer needs to check it (the Standard Webhooks headers and the raw body) with the
 * wall-clock time its body had arrived. The benchmark reads them with the `deliveries` command
 * and verifies the signatures itself (it learns the endpoint's secret only after registering
 * this receiver's URL).
 */

/** One request the receiver got. */
export interface ReceivedWebhook {
  webhookId: string;
  webhookTimestamp: string;
  webhookSignature: string;
  body: string;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
}

export interface WebhookReceiverReady {
  url: string;
}

const received: ReceivedWebhook[] = [];
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : (value ?? ""));

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const receivedAt = Date.now();
    received.push({
      webhookId: header(request.headers["webhook-id"]),
      webhookTimestamp: header(request.headers["webhook-timestamp"]),
      webhookSignature: header(request.headers["webhook-signature"]),
      body: Buffer.concat(chunks).toString("utf8"),
      receivedAt,
    });
    response.writeHead(204).end();
  });
});

server.on("error", (error) => announceFailure(error));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  const ready: WebhookReceiverReady = { url: `http://127.0.0.1:${port}/webhooks` };
  answerRequests({ deliveries: async () => received });
  announceReady(ready);
});
exitWithParent();

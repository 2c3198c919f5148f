import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "./http-server.js";
import { postDelivery } from "./post-delivery.js";

let receiver: HttpServer | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** A receiver answering `status` (never, for "hang"), keeping what it got. */
async function startReceiver(status: number | "hang") {
  const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  receiver = await startHttpServer("127.0.0.1", 0);
  receiver.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (status === "hang") return;
      res.writeHead(status, status === 302 ? { location: "https://elsewhere.example" } : {});
      res.end("ignored");
    });
  });
  return { url: `${receiver.url}/hooks`, got };
}

const request = (shutdown = new AbortController().signal, timeoutMs = 5000) => ({
  headers: { "x-callback-token": "tok" },
  body: '{"event":"x"}',
  timeoutMs,
  shutdown,
});

describe("postDelivery", () => {
  it("POSTs the body as JSON with the provider's headers and gives the receiver's status", async () => {
    const { url, got } = await startReceiver(204);
    expect(await postDelivery(url, request())).toEqual({ status: 204 });
    expect(got).toEqual([{ headers: expect.objectContaining({ "content-type": "application/json", "x-callback-token": "tok" }), body: '{"event":"x"}' }]);
  });

  it("takes a redirect as the answer, without following it", async () => {
    const { url } = await startReceiver(302);
    expect(await postDelivery(url, request())).toEqual({ status: 302 });
  });

  it("says why there was no answer: nobody listening, the timeout, or the simulator closing", async () => {
    const { url } = await startReceiver(200);
    await receiver?.close();
    receiver = undefined;
    expect(await postDelivery(url, request())).toEqual({ error: "ECONNREFUSED" });

    const hanging = await startReceiver("hang");
    expect(await postDelivery(hanging.url, request(undefined, 50))).toEqual({ error: "no answer within 50 ms" });

    const shutdown = new AbortController();
    const pending = postDelivery(hanging.url, request(shutdown.signal));
    while (hanging.got.length < 2) await new Promise((resolve) => setImmediate(resolve));
    shutdown.abort();
    expect(await pending).toEqual({ error: "the simulator closed" });
  });
});

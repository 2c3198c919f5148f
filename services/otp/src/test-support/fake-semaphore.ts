import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake Semaphore received it. */
export interface SemaphoreRequest {
  method: string;
  path: string;
  contentType: string;
  form: Record<string, string>;
}

/** How the fake answers one request. */
export type SemaphoreAnswer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** Reads the request, then drops the connection without answering. */
  | "drop";

/**
 * A local stand-in for https://api.semaphore.co: it checks nothing itself, records every
 * request, and answers from a script (by default like Semaphore does for a queued message).
 */
export async function startFakeSemaphore() {
  const requests: SemaphoreRequest[] = [];
  const script: SemaphoreAnswer[] = [];
  let nextId = 200_112_345;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        form,
      });
      const answer = script.shift() ?? queued(form, nextId++);
      if (answer === "drop") {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      response.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    /** Answers the next requests with these, in order, then as a queued message again. */
    answerNext(...answers: SemaphoreAnswer[]) {
      script.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Semaphore's 200 answer for a message it queued: one entry per number. */
function queued(form: Record<string, string>, messageId: number): SemaphoreAnswer {
  return {
    status: 200,
    body: [
      {
        message_id: messageId,
        user_id: 33333,
        user: "ops@bayad.test",
        account_id: 11111,
        account: "Bayad",
        recipient: form.number,
        message: form.message,
        sender_name: form.sendername ?? "SEMAPHORE",
        network: "Globe",
        status: "Pending",
        type: "Single",
        source: "Api",
        created_at: "2026-03-01 16:00:00",
        updated_at: "2026-03-01 16:00:00",
      },
    ],
  };
}

import { request } from "node:http";
import type { ApiResponse } from "./harness.js";

/**
 * One request with its path sent byte for byte. fetch goes through the WHATWG URL parser, which
 * resolves `.` and `..` segments (`%2E%2E` too) and would never send them; node:http sends the
 * path as given. The body is parsed as JSON when it is JSON, else kept as text.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<ApiResponse & { text: string }> {
  const url = new URL(baseUrl);
  // node:http frames a body of its own accord only for methods that usually carry one: a DELETE's
  // body would go out unframed, as bytes after the request. Say its length unless the caller framed it.
  const framed = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  const length = body !== undefined && !framed ? { "Content-Length": String(Buffer.byteLength(body)) } : {};
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, method, path, headers: { ...headers, ...length, Connection: "close" } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", reject);
        incoming.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body: parsed, text });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseJson, readBody, sendJson } from "./http-io.js";
import { startHttpServer, urlHost, type HttpServer } from "./http-server.js";

const refused = (what: string) => () => new Error(what);

let running: HttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe("startHttpServer", () => {
  it("listens on a free port and answers with sendJson, headers included", async () => {
    running = await startHttpServer("127.0.0.1", 0);
    running.server.on("request", (req: IncomingMessage, res) => {
      void readBody(req, refused("too large")).then((text) => sendJson(res, 201, { echoed: parseJson(text, refused("not json")) }, { "rate-limit-limit": "60" }));
    });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${running.url}/x`, { method: "POST", body: '{"n":1}' });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("rate-limit-limit")).toBe("60");
    expect(await response.json()).toEqual({ echoed: { n: 1 } });
  });

  it("closes even while a request is held without an answer, ending that request", async () => {
    const server = await startHttpServer("127.0.0.1", 0);
    let held!: () => void;
    const arrived = new Promise<void>((resolve) => (held = resolve));
    server.server.on("request", () => held());
    const request = fetch(server.url).then(
      () => "answered",
      () => "ended",
    );
    await arrived;
    await server.close();
    expect(await request).toBe("ended");
  });

  it("refuses a port already in use", async () => {
    running = await startHttpServer("127.0.0.1", 0);
    const port = Number(new URL(running.url).port);
    await expect(startHttpServer("127.0.0.1", port)).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});

describe("urlHost", () => {
  it("gives a wildcard host as 127.0.0.1 and an IPv6 one in brackets", () => {
    expect(urlHost("0.0.0.0")).toBe("127.0.0.1");
    expect(urlHost("::")).toBe("127.0.0.1");
    expect(urlHost("::1")).toBe("[::1]");
    expect(urlHost("localhost")).toBe("localhost");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discardedBodyBytes } from "@bayad/gateway";
import { eventually, expectError, newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { openConnection, type RawConnection, type RawResponse } from "../test-support/raw-connection.js";
import { rawRequest } from "../test-support/raw-request.js";
import { snapshotStores } from "../test-support/store-snapshot.js";

/**
 * The gateway's HTTP edge as a client sees it on the wire: what a refused body leaves of a
 * keep-alive connection, what Node's HTTP layer answers for a request it cannot parse or that
 * arrives too slowly, how request bodies are decoded, and that /metrics is not on the public
 * port. The timeouts are lowered so that a slow client is cut quickly.
 */

const bodyLimitBytes = 2048;
const timeouts = { HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: "2000", HTTP_KEEP_ALIVE_TIMEOUT_MS: "1000" };

let api: TestPlatform;
const connections: RawConnection[] = [];

beforeAll(async () => {
  api = await startTestPlatform({ BODY_LIMIT_BYTES: String(bodyLimitBytes), HTTP_MAX_HEADER_BYTES: "8192", ...timeouts });
});

afterAll(async () => {
  for (const connection of connections) connection.destroy();
  await api?.close();
});

async function connect(): Promise<RawConnection> {
  const connection = await openConnection(api.platform.gatewayUrl);
  connections.push(connection);
  return connection;
}

/** `promise`, or a failure naming what did not happen within `ms`. */
function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const bearer = () => `Authorization: Bearer ${api.platform.testApiKey}\r\n`;
const capabilities = () => `GET /api/v1/payments/capabilities HTTP/1.1\r\nHost: gateway\r\n${bearer()}\r\n`;
const createCustomerHead = (framing: string) =>
  `POST /api/v1/payments/customers HTTP/1.1\r\nHost: gateway\r\n${bearer()}Idempotency-Key: ${newIdempotencyKey()}\r\n` +
  `Content-Type: application/json\r\n${framing}\r\n`;

/** A JSON body of `size` bytes. */
function customerBody(size: number): string {
  const start = `{"customerReference":"${unique("edge")}","email":"juan@example.ph","name":"`;
  return `${start}${"x".repeat(size - start.length - 2)}"}`;
}

/** `text` as chunked transfer coding, 512 bytes a chunk. */
function chunked(text: string): string {
  let out = "";
  for (let at = 0; at < text.length; at += 512) {
    const chunk = text.slice(at, at + 512);
    out += `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}

/** An error envelope with its correlation id in the body and in the header. */
function expectEnvelope(response: RawResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/json/);
  expect(response.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(Object.keys(response.body).sort()).toEqual(["error", "meta", "success"]);
  expect(response.headers["x-correlation-id"]).toMatch(/^\S{8,}$/);
  expect(response.body.meta.correlationId).toBe(response.headers["x-correlation-id"]);
  expect(new Date(response.body.meta.timestamp).toISOString()).toBe(response.body.meta.timestamp);
}

describe("a keep-alive connection after a 413", () => {
  it("carries the next request after a Content-Length body over the limit", async () => {
    const connection = await connect();
    const body = customerBody(64 * 1024);
    await connection.write(`${createCustomerHead(`Content-Length: ${body.length}\r\n`)}${body}`);
    const refused = await within(connection.response(), "the 413");
    expectEnvelope(refused, 413, "PAYLOAD_TOO_LARGE");

    await connection.write(capabilities());
    const next = await within(connection.response(), "the next request's response");
    expect(next.status).toBe(200);
    expect(next.body.success).toBe(true);
  });

  it("carries the next request after a chunked body that grows past the limit", async () => {
    const connection = await connect();
    // Larger than what Node buffers for a paused request, so what the gateway leaves unread
    // stays in front of the next request.
    await connection.write(`${createCustomerHead("Transfer-Encoding: chunked\r\n")}${chunked(customerBody(64 * 1024))}`);
    const refused = await within(connection.response(), "the 413");
    expectEnvelope(refused, 413, "PAYLOAD_TOO_LARGE");
    expect(refused.headers.connection).not.toBe("close");

    await connection.write(capabilities());
    const next = await within(connection.response(), "the next request's response");
    expect(next.status).toBe(200);
    expect(next.body.success).toBe(true);
  });

  it("answers a body too large to read and discard with Connection: close, and closes the connection", async () => {
    const connection = await connect();
    const declared = bodyLimitBytes + discardedBodyBytes + 1;
    // Only the head: a client that waits for the answer before sending megabytes.
    await connection.write(createCustomerHead(`Content-Length: ${declared}\r\n`));
    const refused = await within(connection.response(), "the 413");
    expectEnvelope(refused, 413, "PAYLOAD_TOO_LARGE");
    expect(refused.headers.connection).toBe("close");
    await within(connection.closed, "the server closing the connection");
  });
});

describe("errors from Node's HTTP layer, in the error envelope", () => {
  it("answers a request head over HTTP_MAX_HEADER_BYTES with 431 HEADERS_TOO_LARGE and closes", async () => {
    const connection = await connect();
    await connection.write(`GET /healthz HTTP/1.1\r\nHost: gateway\r\nX-Padding: ${"a".repeat(10_000)}\r\n\r\n`);
    const response = await within(connection.response(), "the 431");
    expectEnvelope(response, 431, "HEADERS_TOO_LARGE");
    expect(response.headers.connection).toBe("close");
    await within(connection.closed, "the server closing the connection");
  });

  it.each([
    ["a request line that is not HTTP", "HELLO GATEWAY\r\n\r\n"],
    ["a space in the request target", "GET /api/v1/payments/capabilities now HTTP/1.1\r\nHost: gateway\r\n\r\n"],
    ["a header name with a space", "GET /healthz HTTP/1.1\r\nHost: gateway\r\nBad Header: x\r\n\r\n"],
    ["both Content-Length and Transfer-Encoding", "POST /healthz HTTP/1.1\r\nHost: gateway\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
  ])("answers %s with 400 MALFORMED_REQUEST and closes", async (_label, request) => {
    const connection = await connect();
    await connection.write(request);
    const response = await within(connection.response(), "the 400");
    expectEnvelope(response, 400, "MALFORMED_REQUEST");
    await within(connection.closed, "the server closing the connection");
  });

  it("cuts a slow-loris client trickling headers with 408 REQUEST_TIMEOUT (HTTP_HEADERS_TIMEOUT_MS)", async () => {
    const connection = await connect();
    await connection.write("GET /healthz HTTP/1.1\r\nHost: gateway\r\n");
    // A header line every 100 ms, for ever: only the server's timeout ends this.
    for (let line = 0; !connection.isClosed(); line += 1) {
      if (line > 200) throw new Error("the server kept a trickling client for 20 s");
      await connection.write(`X-Trickle-${line}: a\r\n`).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expectEnvelope(await connection.response(), 408, "REQUEST_TIMEOUT");
  });

  it("cuts a client trickling its body with 408 REQUEST_TIMEOUT (HTTP_REQUEST_TIMEOUT_MS)", async () => {
    const connection = await connect();
    const body = customerBody(1000);
    await connection.write(createCustomerHead(`Content-Length: ${body.length}\r\n`));
    for (let at = 0; !connection.isClosed(); at += 1) {
      if (at >= body.length) throw new Error("the server waited for the whole trickled body");
      await connection.write(body[at]!).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expectEnvelope(await connection.response(), 408, "REQUEST_TIMEOUT");
  });

  it("closes a connection that never sends a request", async () => {
    const connection = await connect();
    await within(connection.closed, "the server closing a silent connection");
  });

  it("closes an idle keep-alive connection (HTTP_KEEP_ALIVE_TIMEOUT_MS)", async () => {
    const connection = await connect();
    await connection.write(capabilities());
    expect((await within(connection.response(), "the response")).status).toBe(200);
    await within(connection.closed, "the server closing the idle connection");
  });
});

describe("request bodies that are not UTF-8", () => {
  it("refuses invalid UTF-8 bytes with 400 VALIDATION_FAILED naming body, and stores nothing", async () => {
    // A timer renews the billing clock's lease; every authenticated request counts against the
    // rate limits and touches its API key's lastUsedAt.
    const snapshot = () =>
      snapshotStores(api.platform.stores, { exclude: ["billing/leases", "gateway/rate_limits"], ignoreFields: ["lastUsedAt"] });
    const before = await snapshot();
    const reference = unique("utf8");
    const cases = [
      Buffer.from([0xff]), // never valid in UTF-8
      Buffer.from([0xc3]), // a sequence cut short
      Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
      Buffer.from([0xc0, 0xaf]), // an overlong '/'
    ];
    for (const bytes of cases) {
      const body = Buffer.concat([
        Buffer.from(`{"customerReference":"${reference}","email":"maria@example.ph","name":"Maria `),
        bytes,
        Buffer.from('"}'),
      ]);
      const response = await rawRequest(
        api.platform.gatewayUrl,
        "POST",
        "/api/v1/payments/customers",
        {
          Authorization: `Bearer ${api.platform.testApiKey}`,
          "Idempotency-Key": newIdempotencyKey(),
          "Content-Type": "application/json",
          "Content-Length": String(body.length),
        },
        body,
      );
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual(["body: is not valid UTF-8"]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("still takes well-formed UTF-8, a byte order mark included", async () => {
    const name = "Maria Parañaque 💳";
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ customerReference: unique("utf8"), email: "maria@example.ph", name })),
    ]);
    const response = await rawRequest(
      api.platform.gatewayUrl,
      "POST",
      "/api/v1/payments/customers",
      { Authorization: `Bearer ${api.platform.testApiKey}`, "Idempotency-Key": newIdempotencyKey(), "Content-Type": "application/json" },
      body,
    );
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe(name);
  });
});

describe("metrics", () => {
  it("are not served on the public port: /metrics there is 404 ROUTE_NOT_FOUND", async () => {
    const response = await api.request("GET", "/metrics", { credential: null, unchecked: true });
    expectError(response, 404, "ROUTE_NOT_FOUND");
  });

  it("are served on the internal metrics listener, the gateway's and the services' together", async () => {
    expect(new URL(api.platform.metricsUrl).port).not.toBe(new URL(api.platform.gatewayUrl).port);
    await api.request("GET", "/api/v1/payments/capabilities");
    const text = await eventually(async () => {
      const response = await fetch(api.platform.metricsUrl);
      const body = await response.text();
      return response.status === 200 && body.includes('operation="getPaymentCapabilities"') ? body : undefined;
    });
    expect(text).toMatch(/bayad_http_request_duration_seconds_count\{operation="getPaymentCapabilities",method="GET",status="200"\} [1-9]\d*/);
    expect(text).toMatch(/bayad_rpc_request_duration_seconds_count\{service="PaymentsService",procedure="GetCapabilities",code="ok"\} [1-9]\d*/);
    expect(text).toMatch(/^# TYPE bayad_process_cpu_seconds_total /m);
  });
});

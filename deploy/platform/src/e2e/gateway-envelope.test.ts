import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/**
 * What every caller sees of the gateway whatever the operation: the envelope, the error codes of
 * requests that never reach a service, and the correlation id. The body limit is lowered so an
 * oversized body is cheap to send.
 */

const bodyLimitBytes = 2048;

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform({ BODY_LIMIT_BYTES: String(bodyLimitBytes) });
});

afterAll(async () => {
  await api?.close();
});

function validCustomer() {
  return { customerReference: unique("ref"), email: "juan@example.com", name: "Juan dela Cruz" };
}

/** expectError, and a message a person can read. */
function expectErrorEnvelope(response: ApiResponse, status: number, code: string): void {
  expectError(response, status, code);
  expect(typeof response.body.error.message).toBe("string");
  expect(response.body.error.message.length).toBeGreaterThan(0);
}

/** A body a little over twice the limit, as valid JSON. */
function oversizedCustomer() {
  return { customerReference: unique("ref"), email: "juan@example.com", name: "x".repeat(bodyLimitBytes * 2) };
}

describe("unknown routes", () => {
  it("answers 404 ROUTE_NOT_FOUND in the error envelope for a path no operation has", async () => {
    const response = await api.request("GET", "/api/v1/payments/no-such-thing");

    expectErrorEnvelope(response, 404, "ROUTE_NOT_FOUND");
  });

  it("answers 404 ROUTE_NOT_FOUND for an unknown path even without a credential", async () => {
    const response = await api.request("GET", "/api/v2/payments/customers", { credential: null });

    expectErrorEnvelope(response, 404, "ROUTE_NOT_FOUND");
  });
});

describe("methods a route does not have", () => {
  it("answers 405 METHOD_NOT_ALLOWED with an Allow header naming the route's methods", async () => {
    const response = await api.request("DELETE", "/api/v1/payments/customers");

    expectErrorEnvelope(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("Allow")).toBe("POST");
  });

  it("answers 405 for a templated path, naming GET in the Allow header", async () => {
    const response = await api.request("PUT", "/api/v1/payments/customers/cus_abc123", {
      body: validCustomer(),
    });

    expectErrorEnvelope(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("Allow")).toBe("GET");
  });

  it("answers 405 rather than 404 for a POST to a read-only route", async () => {
    const response = await api.request("POST", "/api/v1/payments/capabilities", { body: {} });

    expectErrorEnvelope(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("Allow")).toBe("GET");
  });
});

describe("request bodies", () => {
  it("refuses a body over the configured limit with 413 PAYLOAD_TOO_LARGE", async () => {
    const body = oversizedCustomer();
    expect(JSON.stringify(body).length).toBeGreaterThan(bodyLimitBytes * 2);

    const response = await api.request("POST", "/api/v1/payments/customers", { body });

    expectErrorEnvelope(response, 413, "PAYLOAD_TOO_LARGE");
  });

  it("refuses a chunked body that grows past the limit with 413 PAYLOAD_TOO_LARGE", async () => {
    // No Content-Length: the gateway only finds out while reading.
    const text = JSON.stringify(oversizedCustomer());
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let at = 0; at < bytes.length; at += 512) controller.enqueue(bytes.subarray(at, at + 512));
        controller.close();
      },
    });
    const response = await fetch(`${api.platform.gatewayUrl}/api/v1/payments/customers`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${api.platform.testApiKey}`,
        "Idempotency-Key": unique("chunked"),
        "Content-Type": "application/json",
      },
      body: stream,
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    const body = (await response.json()) as { success: boolean; error: { code: string } };

    expect(response.status).toBe(413);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("refuses a body that is not application/json with 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const response = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: "customerReference=abc&email=juan@example.com",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });

    expectErrorEnvelope(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a text/plain body with 415 even when the text is valid JSON", async () => {
    const response = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: JSON.stringify(validCustomer()),
      headers: { "Content-Type": "text/plain" },
    });

    expectErrorEnvelope(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a JSON body in a charset other than UTF-8 with 415 naming Content-Type, and accepts utf-8 spelled any way", async () => {
    const customer = validCustomer();
    const refused = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: JSON.stringify(customer),
      headers: { "Content-Type": "application/json; charset=utf-16" },
    });
    expectErrorEnvelope(refused, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(refused.body.error.details).toEqual([expect.stringMatching(/^Content-Type: /)]);

    const accepted = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: JSON.stringify(customer),
      headers: { "Content-Type": "application/json; charset=UTF-8" },
    });
    expect(accepted.status).toBe(201);
  });

  it("refuses a compressed body with 415 naming Content-Encoding, rather than reading the compressed bytes as JSON", async () => {
    const response = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: JSON.stringify(validCustomer()),
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
    });
    expectErrorEnvelope(response, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(response.body.error.details).toEqual([expect.stringMatching(/^Content-Encoding: /)]);
  });

  it("refuses malformed JSON with 400 MALFORMED_JSON", async () => {
    const response = await api.request("POST", "/api/v1/payments/customers", {
      rawBody: '{"customerReference": "abc", "email": ',
      headers: { "Content-Type": "application/json" },
    });

    expectErrorEnvelope(response, 400, "MALFORMED_JSON");
  });

  it("accepts application/json with a charset parameter", async () => {
    const response = await api.request("POST", "/api/v1/payments/customers", {
      body: validCustomer(),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });

    expect(response.status).toBe(201);
  });
});

describe("correlation ids", () => {
  const requests: Array<[string, () => Promise<ApiResponse>]> = [
    ["a success", () => api.request("GET", "/api/v1/payments/capabilities")],
    ["a created resource", () => api.request("POST", "/api/v1/payments/customers", { body: validCustomer() })],
    ["a health probe", () => api.request("GET", "/healthz")],
    ["an unknown route", () => api.request("GET", "/nowhere")],
    ["a wrong method", () => api.request("DELETE", "/api/v1/payments/capabilities")],
    ["a missing credential", () => api.request("GET", "/api/v1/payments/capabilities", { credential: null })],
    [
      "a validation failure",
      () => api.request("POST", "/api/v1/payments/customers", { body: { email: "juan@example.com" } }),
    ],
  ];

  it.each(requests)("puts an X-Correlation-Id header on %s", async (_label, send) => {
    const response = await send();

    expect(response.headers.get("X-Correlation-Id")).toMatch(/^\S{8,}$/);
  });

  it.each(requests.filter(([label]) => !["a success", "a created resource", "a health probe"].includes(label)))(
    "repeats the header's correlation id as meta.correlationId on %s",
    async (_label, send) => {
      const response = await send();

      expect(response.body.success).toBe(false);
      expect(response.body.meta.correlationId).toBe(response.headers.get("X-Correlation-Id"));
    },
  );

  it("gives every request its own correlation id when the caller sends none", async () => {
    const first = await api.request("GET", "/nowhere");
    const second = await api.request("GET", "/nowhere");

    expect(first.headers.get("X-Correlation-Id")).not.toBe(second.headers.get("X-Correlation-Id"));
  });

  it.each([
    ["a UUID", "7b0e9c1d-2f3a-4b5c-8d6e-9f0a1b2c3d4e"],
    ["a dotted trace id", "checkout-svc.req:42_a"],
  ])("echoes a sensible caller-supplied X-Correlation-Id (%s)", async (_label, offered) => {
    const success = await api.request("GET", "/api/v1/payments/capabilities", {
      headers: { "X-Correlation-Id": offered },
    });
    const failure = await api.request("GET", "/nowhere", { headers: { "X-Correlation-Id": offered } });

    expect(success.headers.get("X-Correlation-Id")).toBe(offered);
    expect(failure.headers.get("X-Correlation-Id")).toBe(offered);
    expect(failure.body.meta.correlationId).toBe(offered);
  });

  it.each([
    ["spaces and markup", "<script>alert(1)</script> or 1=1"],
    ["an over-long value", "a".repeat(500)],
    ["a path-like value", "../../etc/passwd"],
  ])("replaces a garbage caller-supplied X-Correlation-Id (%s) with its own", async (_label, offered) => {
    const response = await api.request("GET", "/nowhere", { headers: { "X-Correlation-Id": offered } });

    const id = response.headers.get("X-Correlation-Id");
    expect(id).not.toBe(offered);
    expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(response.body.meta.correlationId).toBe(id);
  });
});

describe("success envelopes", () => {
  it.each([
    ["getPaymentCapabilities", () => api.request("GET", "/api/v1/payments/capabilities")],
    ["createCustomer", () => api.request("POST", "/api/v1/payments/customers", { body: validCustomer() })],
    ["healthz", () => api.request("GET", "/healthz")],
  ])("%s answers exactly {success: true, data}", async (_label, send) => {
    const response = await send();

    expect(response.status).toBeLessThan(300);
    expect(Object.keys(response.body).sort()).toEqual(["data", "success"]);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toBeTypeOf("object");
    expect(response.body.data).not.toBeNull();
  });
});

describe("error envelopes", () => {
  it("never carry a stack trace, an exception name or the underlying cause", async () => {
    const responses = await Promise.all([
      api.request("GET", "/nowhere"),
      api.request("PATCH", "/api/v1/payments/customers"),
      api.request("POST", "/api/v1/payments/customers", {
        rawBody: '{"customerReference": ',
        headers: { "Content-Type": "application/json" },
      }),
      api.request("POST", "/api/v1/payments/customers", {
        rawBody: "{{{{",
        headers: { "Content-Type": "text/plain" },
      }),
      api.request("POST", "/api/v1/payments/customers", { body: oversizedCustomer() }),
      api.request("POST", "/api/v1/payments/customers", { body: [1, 2, 3] }),
      api.request("POST", "/api/v1/payments/customers", { body: validCustomer(), idempotencyKey: null }),
      api.request("GET", "/api/v1/payments/customers/not-a-customer"),
      api.request("GET", "/api/v1/payments/customers/cus_doesnotexist0000"),
      api.request("GET", "/api/v1/payments/capabilities", { credential: "eyJhbGciOiJub25lIn0.eyJ9.x" }),
      api.request("GET", "/api/v1/payments/capabilities", { credential: `sk_test_${"0".repeat(32)}` }),
    ]);

    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.body.success).toBe(false);
      const text = JSON.stringify(response.body);
      expect(text).not.toMatch(/Error:/);
      expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
      expect(text).not.toMatch(/node_modules|\/src\/|\/dist\//);
      expect(text).not.toMatch(/"(stack|cause)"/);
      expect(text).not.toMatch(/SyntaxError|TypeError|ConnectError/);
    }
  });
});

describe("contract documents", () => {
  it("serves the OpenAPI document at /openapi.json", async () => {
    const response = await fetch(`${api.platform.gatewayUrl}/openapi.json`);
    const doc = (await response.json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };

    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("X-Correlation-Id")).toBeTruthy();
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/v1/payments/customers", "/api/v1/payments/capabilities", "/api/v1/shared/otp/generate"]),
    );
  });

  it("serves /docs: a page that runs only the gateway's own copy of the renderer, pointed at /openapi.json", async () => {
    const response = await fetch(`${api.platform.gatewayUrl}/docs`);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const policy = response.headers.get("Content-Security-Policy") ?? "";
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toContain("unsafe-eval");
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('data-url="/openapi.json"');
    expect(html).toContain('href="/openapi.json"');
    // Every script is a file of the gateway's: none inline, none from elsewhere.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map(([, , body]) => body)).toEqual(["", ""]);
    const sources = scripts.flatMap(([, attributes]) => [...attributes!.matchAll(/\bsrc="([^"]+)"/g)].map(([, src]) => src!));
    expect(sources).toEqual([expect.stringMatching(/^\/docs\/assets\/[\w.-]+\.js$/)]);

    const bundle = await fetch(`${api.platform.gatewayUrl}${sources[0]}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("Content-Type")).toMatch(/^text\/javascript/);
    expect(bundle.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});

import { describe, expect, it } from "vitest";
import { Bayad, BayadError } from "./index.js";

/**
 * records.export and reports.summary against a stand-in fetch: the export hands back the body as
 * it streams (chunk by chunk, never buffered), past the attempt timeout; a refusal is a
 * BayadError; a broken transfer errors the stream.
 */

const encoder = new TextEncoder();

/** A body whose chunks the test releases one by one. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: () => controller.error(new TypeError("terminated")),
    abort: (reason: unknown) => controller.error(reason),
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

describe("records.export", () => {
  it("passes the filters and hands back the body as it arrives, its reading not bound by timeoutMs", async () => {
    const body = controlledBody();
    let asked: URL | undefined;
    const bayad = new Bayad({
      apiKey: "sk_test_x",
      baseUrl: "http://bayad.invalid",
      timeoutMs: 20,
      fetch: async (request) => {
        asked = new URL(request.url);
        // As a real fetch does: the request's signal aborting ends the body being read.
        request.signal.addEventListener("abort", () => body.abort(request.signal.reason));
        return new Response(body.stream, { status: 200, headers: { "content-type": "text/csv; charset=utf-8" } });
      },
    });
    body.push("id,type\r\n");
    const stream = await bayad.records.export({ customerId: "cus_1", metadata: "k=a=b", amountMin: -1500, paymentMethod: "gcash" });
    expect(Object.fromEntries(asked!.searchParams)).toEqual({ customerId: "cus_1", metadata: "k=a=b", amountMin: "-1500", paymentMethod: "gcash" });
    const reader = stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("id,type\r\n");
    // Longer than an attempt may wait for its answer: the body is still being read.
    await new Promise((resolve) => setTimeout(resolve, 100));
    body.push("chk_1,checkout\r\n");
    body.end();
    reader.releaseLock();
    expect(await readAll(stream)).toBe("chk_1,checkout\r\n");
  });

  it("throws the gateway's error before any byte", async () => {
    const bayad = new Bayad({
      apiKey: "sk_test_x",
      baseUrl: "http://bayad.invalid",
      fetch: async () =>
        Response.json(
          { success: false, error: { code: "VALIDATION_FAILED", message: "The request is invalid.", details: ["amountMin: must not exceed amountMax"] }, meta: { timestamp: "2030-01-01T00:00:00Z", correlationId: "c-1" } },
          { status: 400 },
        ),
    });
    const failure = await bayad.records.export({ amountMin: 2, amountMax: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BayadError);
    expect(failure).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: ["amountMin: must not exceed amountMax"], correlationId: "c-1" });
  });

  it("errors the stream when the transfer breaks off", async () => {
    const body = controlledBody();
    const bayad = new Bayad({ apiKey: "sk_test_x", baseUrl: "http://bayad.invalid", fetch: async () => new Response(body.stream, { status: 200 }) });
    const stream = await bayad.records.export();
    body.push("id\r\n");
    body.fail();
    await expect(readAll(stream)).rejects.toThrow("terminated");
  });
});

describe("reports.summary", () => {
  it("sends the range, granularity and groups, and answers the data", async () => {
    let asked: URL | undefined;
    const totals = { paidCount: 1, paidMinor: "100", failedCount: 0, failedMinor: "0", refundedCount: 0, refundedMinor: "0", feeMinor: "0", netMinor: "100", unreportedFeeCount: 1 };
    const bayad = new Bayad({
      apiKey: "sk_test_x",
      baseUrl: "http://bayad.invalid",
      fetch: async (request) => {
        asked = new URL(request.url);
        return Response.json({ success: true, data: { periods: [], total: totals } });
      },
    });
    const summary = await bayad.reports.summary({ from: "2030-01-01", to: "2030-01-31", granularity: "month", groupBy: ["payment_method", "provider_account"] });
    expect(summary.total).toEqual(totals);
    expect(asked!.searchParams.get("from")).toBe("2030-01-01");
    expect(asked!.searchParams.get("granularity")).toBe("month");
    expect(asked!.searchParams.getAll("groupBy")).toEqual(["payment_method", "provider_account"]);
  });
});

import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "./main.js";

/**
 * `records export` and `records rebuild-totals` against a stand-in gateway: the export's CSV
 * arrives in many chunks (or breaks off), the rebuild answers the admin envelope.
 */

const adminKey = "adm_cli_test_key_0123456789";
const apiKey = "sk_test_cli_0123456789";
const chunks = Array.from({ length: 50 }, (_, i) => `chk_${i},checkout,paid\r\n`);
const csv = `id,type,status\r\n${chunks.join("")}`;

let server: Server;
let baseUrl: string;
const seen: Array<{ url: string; authorization?: string; body: string }> = [];

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of request) body += String(chunk);
  const url = request.url ?? "";
  seen.push({ url, authorization: request.headers.authorization, body });
  if (url.startsWith("/api/v1/payments/records/export")) {
    const query = new URL(url, "http://x").searchParams;
    if (query.get("amountMin") === "x") {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ success: false, error: { code: "VALIDATION_FAILED", message: "The request is invalid.", details: ["amountMin: must be integer"] } }));
      return;
    }
    response.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
    response.write("id,type,status\r\n");
    for (const [i, line] of chunks.entries()) {
      // A broken transfer: the connection closes without the final chunk.
      if (query.get("status") === "break" && i === 10) {
        response.destroy();
        return;
      }
      // Each line sent before the next, so the break comes after bytes the client has.
      await new Promise((resolve) => response.write(line, resolve));
    }
    response.end();
    return;
  }
  if (url.endsWith("/payment-totals/rebuild")) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ success: true, data: { recordsRead: 7, totalsWritten: 2 } }));
    return;
  }
  response.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function capture() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let bytes = "";
  const io: CliIo = {
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    byteOut: new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.toString("utf8");
        done();
      },
    }),
  };
  return { io, stdout, stderr, bytes: () => bytes };
}

const env = { ADMIN_API_KEY: adminKey, BAYAD_API_KEY: apiKey };

describe("records export", () => {
  it("streams the CSV to standard output, passing the filters as the API names them", async () => {
    const out = capture();
    const status = await runCli(
      ["records", "export", "--customer", "cus_1", "--metadata", "note=a=b", "--amount-min=-1500", "--payment-method", "gcash", "--provider-account", "pa_1"],
      { ...env, BAYAD_URL: baseUrl },
      fetch,
      out.io,
    );
    expect(out.stderr).toEqual([]);
    expect(status).toBe(0);
    expect(out.bytes()).toBe(csv);
    const asked = new URL(seen.at(-1)!.url, "http://x");
    expect(asked.pathname).toBe("/api/v1/payments/records/export");
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      customerId: "cus_1",
      metadata: "note=a=b",
      amountMin: "-1500",
      paymentMethod: "gcash",
      providerAccountId: "pa_1",
    });
    expect(seen.at(-1)!.authorization).toBe(`Bearer ${apiKey}`);
  });

  it("writes --output, and leaves no file when the transfer breaks off", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bayad-export-"));
    const file = join(dir, "records.csv");
    const whole = capture();
    expect(await runCli(["records", "export", "--output", file], { ...env, BAYAD_URL: baseUrl }, fetch, whole.io)).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(csv);

    const brokenFile = join(dir, "broken.csv");
    const broken = capture();
    expect(await runCli(["records", "export", "--status", "break", "--output", brokenFile], { ...env, BAYAD_URL: baseUrl }, fetch, broken.io)).toBe(1);
    expect(broken.stderr.join("\n")).toMatch(/broke off/);
    expect(existsSync(brokenFile)).toBe(false);
  });

  it("reports a broken transfer to standard output as a failure", async () => {
    const out = capture();
    expect(await runCli(["records", "export", "--status", "break"], { ...env, BAYAD_URL: baseUrl }, fetch, out.io)).toBe(1);
    expect(out.stderr.join("\n")).toMatch(/broke off.*incomplete/);
  });

  it("prints the gateway's validation error and writes nothing", async () => {
    const out = capture();
    expect(await runCli(["records", "export", "--amount-min", "x"], { ...env, BAYAD_URL: baseUrl }, fetch, out.io)).toBe(1);
    expect(out.stderr.join("\n")).toBe("VALIDATION_FAILED: The request is invalid.\n  - amountMin: must be integer");
    expect(out.bytes()).toBe("");
  });

  it("needs an API key", async () => {
    const out = capture();
    expect(await runCli(["records", "export"], { BAYAD_URL: baseUrl }, fetch, out.io)).toBe(2);
    expect(out.stderr.join("\n")).toMatch(/API key/);
  });
});

describe("records rebuild-totals", () => {
  it("posts to the project's rebuild with the environment, and prints the counts", async () => {
    const out = capture();
    expect(await runCli(["records", "rebuild-totals", "--project", "prj_abc", "--environment", "live"], { ...env, BAYAD_URL: baseUrl }, fetch, out.io)).toBe(0);
    expect(seen.at(-1)).toMatchObject({ url: "/admin/v1/projects/prj_abc/payment-totals/rebuild", authorization: `Bearer ${adminKey}`, body: '{"environment":"live"}' });
    expect(out.stdout).toEqual(["Read 7 payment records; wrote 2 totals."]);
  });

  it("rebuilds both modes without --environment, and refuses another mode", async () => {
    const out = capture();
    expect(await runCli(["records", "rebuild-totals", "--project", "prj_abc"], { ...env, BAYAD_URL: baseUrl }, fetch, out.io)).toBe(0);
    expect(seen.at(-1)?.body).toBe("{}");
    expect(await runCli(["records", "rebuild-totals", "--project", "prj_abc", "--environment", "prod"], { ...env, BAYAD_URL: baseUrl }, fetch, capture().io)).toBe(2);
  });
});

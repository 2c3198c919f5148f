import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "./main.js";

interface Recorded {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** A stand-in for the gateway's admin API: records each request and answers from `reply`. */
let recorded: Recorded[] = [];
let reply: (request: Recorded) => { status: number; body: string; type?: string } = () => ({
  status: 500,
  body: "{}",
});
let server: Server;
let baseUrl: string;

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const entry: Recorded = {
    method: request.method,
    url: request.url,
    authorization: request.headers.authorization,
    contentType: request.headers["content-type"],
    body: text ? JSON.parse(text) : undefined,
  };
  recorded.push(entry);
  const { status, body, type } = reply(entry);
  response.writeHead(status, { "content-type": type ?? "application/json" });
  response.end(body);
}

function envelope(status: number, body: unknown) {
  return () => ({ status, body: JSON.stringify(body) });
}

function capture(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (text) => stdout.push(text), err: (text) => stderr.push(text) };
}

const adminKey = "adm_cli_test_key_0123456789";

beforeAll(async () => {
  server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  recorded = [];
});

function env(extra: Record<string, string | undefined> = {}) {
  return { BAYAD_URL: baseUrl, ADMIN_API_KEY: adminKey, ...extra };
}

describe("runCli", () => {
  it("creates a project and prints the returned data as JSON", async () => {
    const data = { projectId: "prj_abc", name: "Acme" };
    reply = envelope(201, { success: true, data });
    const io = capture();

    const status = await runCli(["projects", "create", "--name", "Acme"], env(), fetch, io);

    expect(status).toBe(0);
    expect(recorded).toEqual([
      {
        method: "POST",
        url: "/admin/v1/projects",
        authorization: `Bearer ${adminKey}`,
        contentType: "application/json",
        body: { name: "Acme" },
      },
    ]);
    expect(JSON.parse(io.stdout.join("\n"))).toEqual(data);
    expect(io.stderr).toEqual([]);
  });

  it("issues an API key for a project and environment", async () => {
    const data = { apiKey: "sk_live_x", keyId: "key_1", environment: "live" };
    reply = envelope(201, { success: true, data });
    const io = capture();

    const status = await runCli(
      ["api-keys", "create", "--project", "prj_abc", "--environment", "live"],
      env(),
      fetch,
      io,
    );

    expect(status).toBe(0);
    expect(recorded[0]?.url).toBe("/admin/v1/projects/prj_abc/api-keys");
    expect(recorded[0]?.body).toEqual({ environment: "live" });
    expect(JSON.parse(io.stdout.join("\n"))).toEqual(data);
  });

  it("lists a project's API keys with a GET", async () => {
    const data = [{ keyId: "key_1", environment: "test", keyPrefix: "sk_test_abcd", keyLast4: "wxyz", createdAt: "2030-01-01T00:00:00.000Z" }];
    reply = envelope(200, { success: true, data });
    const io = capture();

    const status = await runCli(["api-keys", "list", "--project", "prj_abc"], env(), fetch, io);

    expect(status).toBe(0);
    expect(recorded[0]).toMatchObject({ method: "GET", url: "/admin/v1/projects/prj_abc/api-keys", body: undefined });
    expect(JSON.parse(io.stdout.join("\n"))).toEqual(data);
  });

  it("revokes an API key named by its id, sending no body", async () => {
    reply = envelope(200, { success: true, data: { keyId: "key_1", revokedAt: "2030-01-01T00:00:00.000Z" } });
    const io = capture();

    const status = await runCli(["api-keys", "revoke", "key_1", "--project", "prj_abc"], env(), fetch, io);

    expect(status).toBe(0);
    expect(recorded[0]).toMatchObject({
      method: "POST",
      url: "/admin/v1/projects/prj_abc/api-keys/key_1/revoke",
      contentType: undefined,
      body: undefined,
    });
  });

  it("refuses a revoke without the key id or with two, without calling the gateway", async () => {
    for (const args of [["--project", "prj_abc"], ["key_1", "key_2", "--project", "prj_abc"]]) {
      const io = capture();
      expect(await runCli(["api-keys", "revoke", ...args], env(), fetch, io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(/^error: /);
    }
    expect(recorded).toEqual([]);
  });

  it("rotates the development issuer's signing key", async () => {
    reply = envelope(200, { success: true, data: { keys: [{ kid: "k2", createdAt: "2030-01-01T00:00:00.000Z" }] } });
    const io = capture();

    const status = await runCli(["signing-keys", "rotate"], env(), fetch, io);

    expect(status).toBe(0);
    expect(recorded[0]).toMatchObject({ method: "POST", url: "/admin/v1/signing-keys/rotate", body: undefined });
  });

  it("mints a service token with scopes as a list and the TTL as a number", async () => {
    reply = envelope(201, { success: true, data: { accessToken: "a.b.c", expiresAt: "2030-01-01T00:00:00.000Z" } });
    const io = capture();

    const status = await runCli(
      [
        "service-tokens", "create",
        "--project", "prj_abc",
        "--environment", "test",
        "--subject", "login-service",
        "--scopes", "otp:generate, otp:verify",
        "--ttl", "3600",
      ],
      env(),
      fetch,
      io,
    );

    expect(status).toBe(0);
    expect(recorded[0]?.url).toBe("/admin/v1/service-tokens");
    expect(recorded[0]?.body).toEqual({
      projectId: "prj_abc",
      environment: "test",
      subject: "login-service",
      scopes: ["otp:generate", "otp:verify"],
      ttlSeconds: 3600,
    });
  });

  it("keeps a path prefix of BAYAD_URL", async () => {
    reply = envelope(201, { success: true, data: {} });
    const status = await runCli(
      ["projects", "create", "--name", "Acme"],
      env({ BAYAD_URL: `${baseUrl}/bayad` }),
      fetch,
      capture(),
    );
    expect(status).toBe(0);
    expect(recorded[0]?.url).toBe("/bayad/admin/v1/projects");
  });

  it("prints the error code, message and details to stderr and exits 1", async () => {
    reply = envelope(400, {
      success: false,
      error: { code: "VALIDATION_FAILED", message: "The request is invalid.", details: ["name is required"] },
      meta: { correlationId: "c1" },
    });
    const io = capture();

    const status = await runCli(["projects", "create", "--name", "x"], env(), fetch, io);

    expect(status).toBe(1);
    expect(io.stdout).toEqual([]);
    expect(io.stderr.join("\n")).toBe("VALIDATION_FAILED: The request is invalid.\n  - name is required");
  });

  it("reports a response that is not an envelope", async () => {
    reply = () => ({ status: 502, body: "<html>Bad gateway</html>", type: "text/html" });
    const io = capture();

    const status = await runCli(["projects", "create", "--name", "x"], env(), fetch, io);

    expect(status).toBe(1);
    expect(io.stderr.join("\n")).toContain("HTTP 502");
  });

  it("fails with one line naming ADMIN_API_KEY when it is missing, without calling the gateway", async () => {
    const io = capture();

    const status = await runCli(["projects", "create", "--name", "x"], env({ ADMIN_API_KEY: undefined }), fetch, io);

    expect(status).toBe(1);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toContain("ADMIN_API_KEY");
    expect(io.stderr[0]).not.toContain("\n");
    expect(recorded).toEqual([]);
  });

  it("reports an unreachable gateway", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const io = capture();

    const status = await runCli(
      ["projects", "create", "--name", "x"],
      env({ BAYAD_URL: `http://127.0.0.1:${port}` }),
      fetch,
      io,
    );

    expect(status).toBe(1);
    expect(io.stderr[0]).toContain("cannot reach");
  });

  it.each([
    ["an unknown command", ["projects", "delete"]],
    ["a missing required option", ["projects", "create"]],
    ["an unknown option", ["projects", "create", "--name", "x", "--colour", "red"]],
    ["a bad environment", ["api-keys", "create", "--project", "prj_a", "--environment", "prod"]],
    [
      "a TTL that is not a number",
      ["service-tokens", "create", "--project", "p", "--environment", "test", "--subject", "s", "--scopes", "otp:read", "--ttl", "1h"],
    ],
  ])("refuses %s with exit status 2 and sends nothing", async (_label, argv) => {
    const io = capture();

    const status = await runCli(argv, env(), fetch, io);

    expect(status).toBe(2);
    expect(io.stderr.join("\n")).toMatch(/^error: /);
    expect(recorded).toEqual([]);
  });

  describe("provider-accounts", () => {
    const account = {
      providerAccountId: "pa_abc",
      projectId: "prj_abc",
      environment: "live",
      provider: "paymongo",
      secretKeyLast4: "9xYz",
      paymentMethodTypes: ["qrph", "gcash"],
      webhook: { webhookId: "hook_1", status: "enabled", url: "https://pay.example.ph/provider-webhooks/paymongo/pa_abc" },
      createdAt: "2030-01-01T00:00:00.000Z",
      updatedAt: "2030-01-01T00:00:00.000Z",
    };
    const secretKey = "sk_live_fromAFileNotTheCommandLine9xYz";
    let keyFile: string;

    beforeAll(() => {
      const dir = mkdtempSync(join(tmpdir(), "bayad-cli-"));
      keyFile = join(dir, "paymongo.key");
      writeFileSync(keyFile, `${secretKey}\n`, { mode: 0o600 });
    });

    it("puts an account with the key read from --secret-key-file, and prints it as JSON with --json", async () => {
      reply = envelope(201, { success: true, data: account });
      const io = capture();

      const argv = ["provider-accounts", "put", "prj_abc", "live", "--secret-key-file", keyFile, "--payment-method-types", "qrph, gcash", "--json"];
      const status = await runCli(argv, env(), fetch, io);

      expect(status).toBe(0);
      expect(recorded).toEqual([
        {
          method: "PUT",
          url: "/admin/v1/projects/prj_abc/provider-accounts/live",
          authorization: `Bearer ${adminKey}`,
          contentType: "application/json",
          body: { provider: "paymongo", secretKey, paymentMethodTypes: ["qrph", "gcash"] },
        },
      ]);
      expect(JSON.parse(io.stdout.join("\n"))).toEqual(account);
    });

    it("reads the key from standard input when no file is named, and prints a summary without --json", async () => {
      reply = envelope(200, { success: true, data: account });
      const io = { ...capture(), readStdin: async () => `${secretKey}\n` };

      const status = await runCli(["provider-accounts", "put", "prj_abc", "live", "--payment-method-types", "qrph,gcash"], env(), fetch, io);

      expect(status).toBe(0);
      expect(recorded[0]?.body).toMatchObject({ secretKey });
      const printed = io.stdout.join("\n");
      expect(printed).toContain("pa_abc");
      expect(printed).toContain("…9xYz");
      expect(printed).toContain("hook_1 (enabled)");
      expect(printed).not.toContain(secretKey);
    });

    it("gets and deletes an account with GET and DELETE, sending no body", async () => {
      reply = envelope(200, { success: true, data: account });
      const io = capture();

      expect(await runCli(["provider-accounts", "get", "prj_abc", "test", "--json"], env(), fetch, io)).toBe(0);
      expect(await runCli(["provider-accounts", "delete", "prj_abc", "test"], env(), fetch, io)).toBe(0);

      expect(recorded).toMatchObject([
        { method: "GET", url: "/admin/v1/projects/prj_abc/provider-accounts/test", body: undefined },
        { method: "DELETE", url: "/admin/v1/projects/prj_abc/provider-accounts/test", body: undefined },
      ]);
      expect(io.stdout.at(-1)).toMatch(/^Removed paymongo account pa_abc/);
    });

    it.each([
      ["a key given on the command line", ["provider-accounts", "put", "prj_abc", "live", "--secret-key", "sk_live_x", "--payment-method-types", "qrph"]],
      ["a missing --payment-method-types", ["provider-accounts", "put", "prj_abc", "live", "--secret-key-file", "/dev/null"]],
      ["an unreadable key file", ["provider-accounts", "put", "prj_abc", "live", "--secret-key-file", "/no/such/key", "--payment-method-types", "qrph"]],
      ["an empty key file", ["provider-accounts", "put", "prj_abc", "live", "--secret-key-file", "/dev/null", "--payment-method-types", "qrph"]],
      ["a bad environment", ["provider-accounts", "get", "prj_abc", "prod"]],
      ["a missing environment", ["provider-accounts", "delete", "prj_abc"]],
    ])("refuses %s with exit status 2 and sends nothing", async (_label, argv) => {
      const io = capture();

      expect(await runCli(argv, env(), fetch, io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(/^error: /);
      expect(recorded).toEqual([]);
    });
  });

  it("prints usage for help without needing the admin key", async () => {
    const io = capture();

    const status = await runCli(["help"], {}, fetch, io);

    expect(status).toBe(0);
    expect(io.stdout.join("\n")).toContain("service-tokens create");
    expect(recorded).toEqual([]);
  });
});

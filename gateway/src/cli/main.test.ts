import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { runCli, type CliIo } from "./main.js";

interface Recorded {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  idempotencyKey?: string | undefined;
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
    idempotencyKey: request.headers["idempotency-key"] as string | undefined,
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

  it("ends every dashboard session with sessions revoke --all, and needs --all", async () => {
    reply = envelope(200, { success: true, data: { revoked: 3 } });
    const io = capture();

    expect(await runCli(["sessions", "revoke", "--all"], env(), fetch, io)).toBe(0);

    expect(recorded[0]).toMatchObject({ method: "POST", url: "/admin/v1/dashboard-sessions/revoke", authorization: `Bearer ${adminKey}`, body: undefined });
    expect(io.stdout.join("\n")).toBe("Ended 3 dashboard sessions.");

    const bare = capture();
    expect(await runCli(["sessions", "revoke"], env(), fetch, bare)).toBe(2);
    expect(bare.stderr.join("\n")).toContain("--all");
    expect(recorded).toHaveLength(1);
  });

  it("reseals every component's secrets and prints what each found", async () => {
    const components = [
      { component: "gateway", resealed: 2, current: 1, unreadable: 0 },
      { component: "payments", resealed: 0, current: 4, unreadable: 1 },
    ];
    reply = envelope(200, { success: true, data: { components } });
    const io = capture();

    expect(await runCli(["secrets", "reseal"], env(), fetch, io)).toBe(0);

    expect(recorded[0]).toMatchObject({ method: "POST", url: "/admin/v1/secrets/reseal", body: undefined });
    expect(io.stdout.join("\n")).toBe("gateway   2 resealed, 1 already current, 0 unreadable\npayments  0 resealed, 4 already current, 1 unreadable");
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

    it("puts a Xendit account with its callback token read from --callback-token-file, and prints the callback URL to configure", async () => {
      const xendit = {
        ...account,
        provider: "xendit",
        paymentMethodTypes: ["GCASH", "QRPH"],
        webhook: undefined,
        callback: { url: "https://pay.example.ph/provider-webhooks/xendit/pa_abc", tokenLast4: "t0k3" },
      };
      reply = envelope(201, { success: true, data: xendit });
      const dir = mkdtempSync(join(tmpdir(), "bayad-cli-"));
      const tokenFile = join(dir, "xendit.token");
      const token = "xendit-callback-token-from-a-file-t0k3";
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
      const io = { ...capture(), readStdin: async () => "xnd_production_fromStdin9xYz\n" };

      const argv = ["provider-accounts", "put", "prj_abc", "live", "--provider", "xendit", "--callback-token-file", tokenFile, "--payment-method-types", "GCASH,QRPH"];
      expect(await runCli(argv, env(), fetch, io)).toBe(0);

      expect(recorded[0]).toMatchObject({
        method: "PUT",
        url: "/admin/v1/projects/prj_abc/provider-accounts/live",
        body: { provider: "xendit", secretKey: "xnd_production_fromStdin9xYz", paymentMethodTypes: ["GCASH", "QRPH"], callbackToken: token },
      });
      const printed = io.stdout.join("\n");
      expect(printed).toContain("callback URL      https://pay.example.ph/provider-webhooks/xendit/pa_abc  (configure it in Xendit's dashboard)");
      expect(printed).toContain("…t0k3");
      expect(printed).not.toContain(token);
    });

    it("lists a project's accounts, and names the provider of a get or delete with --provider", async () => {
      reply = envelope(200, { success: true, data: [account] });
      const io = capture();
      expect(await runCli(["provider-accounts", "list", "prj_abc"], env(), fetch, io)).toBe(0);
      reply = envelope(200, { success: true, data: account });
      expect(await runCli(["provider-accounts", "get", "prj_abc", "live", "--provider", "xendit", "--json"], env(), fetch, io)).toBe(0);
      expect(await runCli(["provider-accounts", "delete", "prj_abc", "live", "--provider", "paymongo"], env(), fetch, io)).toBe(0);
      expect(recorded).toMatchObject([
        { method: "GET", url: "/admin/v1/projects/prj_abc/provider-accounts" },
        { method: "GET", url: "/admin/v1/projects/prj_abc/provider-accounts/live?provider=xendit" },
        { method: "DELETE", url: "/admin/v1/projects/prj_abc/provider-accounts/live?provider=paymongo" },
      ]);
      expect(io.stdout[0]).toMatch(/^paymongo account pa_abc/);
    });

    it.each([
      ["a Xendit account without --callback-token-file", ["provider-accounts", "put", "prj_abc", "live", "--provider", "xendit", "--secret-key-file", "/dev/null"]],
      ["a callback token for a PayMongo account", ["provider-accounts", "put", "prj_abc", "live", "--callback-token-file", "/dev/null", "--payment-method-types", "qrph"]],
      ["an unknown provider", ["provider-accounts", "get", "prj_abc", "live", "--provider", "stripe"]],
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

  describe("otp-settings", () => {
    it("puts the settings read from standard input (as get --json prints them), without projectId and environment", async () => {
      const settings = { projectId: "prj_abc", environment: "live", smsCountries: ["PH", "SG"], appName: "Kape", templates: { fil: "Ang {app} code mo: {code}" } };
      reply = envelope(200, { success: true, data: settings });
      const io = { ...capture(), readStdin: async () => JSON.stringify(settings) };

      expect(await runCli(["otp-settings", "put", "prj_abc", "live"], env(), fetch, io)).toBe(0);

      expect(recorded).toMatchObject([
        { method: "PUT", url: "/admin/v1/projects/prj_abc/otp-settings/live", body: { smsCountries: ["PH", "SG"], appName: "Kape", templates: settings.templates } },
      ]);
      expect(recorded[0]!.body).not.toHaveProperty("projectId");
    });

    it("gets them with GET, and refuses an unknown mode without a request", async () => {
      reply = envelope(200, { success: true, data: { projectId: "prj_abc", environment: "test", smsCountries: ["PH"], appName: "Bayad", templates: {} } });
      expect(await runCli(["otp-settings", "get", "prj_abc", "test"], env(), fetch, capture())).toBe(0);
      expect(recorded).toMatchObject([{ method: "GET", url: "/admin/v1/projects/prj_abc/otp-settings/test", body: undefined }]);
      expect(await runCli(["otp-settings", "get", "prj_abc", "prod"], env(), fetch, capture())).toBe(2);
      expect(recorded).toHaveLength(1);
    });
  });

  describe("provider-routing", () => {
    const routing = {
      projectId: "prj_abc",
      environment: "live",
      routes: [
        { providerAccountId: "pa_paymongo", weight: 700 },
        { providerAccountId: "pa_xendit", methods: ["checkout", "gcash"], maxAmount: { amountMinor: 5_000_000, currency: "PHP" }, weight: 300 },
      ],
      default: false,
      version: 2,
    };

    it("puts the routing read from standard input (as get --json prints it), sending only routes and version", async () => {
      reply = envelope(200, { success: true, data: { ...routing, version: 3 } });
      const io = { ...capture(), readStdin: async () => JSON.stringify(routing) };

      expect(await runCli(["provider-routing", "put", "prj_abc", "live"], env(), fetch, io)).toBe(0);

      expect(recorded).toEqual([
        {
          method: "PUT",
          url: "/admin/v1/projects/prj_abc/provider-routing/live",
          authorization: `Bearer ${adminKey}`,
          contentType: "application/json",
          body: { routes: routing.routes, version: 2 },
        },
      ]);
      const printed = io.stdout.join("\n");
      expect(printed).toContain("version 3");
      expect(printed).toMatch(/pa_xendit\s+weight\s+300\s+checkout, gcash 0–5000000 centavos/);
    });

    it("gets the routing with GET", async () => {
      reply = envelope(200, { success: true, data: { ...routing, default: true, version: 0 } });
      const io = capture();
      expect(await runCli(["provider-routing", "get", "prj_abc", "test"], env(), fetch, io)).toBe(0);
      expect(recorded).toMatchObject([{ method: "GET", url: "/admin/v1/projects/prj_abc/provider-routing/test", body: undefined }]);
      expect(io.stdout.join("\n")).toContain("(default)");
    });

    it.each([
      ["a routing that is not JSON", "routes: pa_1"],
      ["a routing without routes", "{}"],
    ])("refuses %s with exit status 2 and sends nothing", async (_label, text) => {
      const io = { ...capture(), readStdin: async () => text };
      expect(await runCli(["provider-routing", "put", "prj_abc", "live"], env(), fetch, io)).toBe(2);
      expect(recorded).toEqual([]);
    });
  });

  it.each([
    ["projects create", ["projects", "create", "--name", "Acme"]],
    ["api-keys create", ["api-keys", "create", "--project", "prj_abc", "--environment", "test"]],
    ["api-keys list", ["api-keys", "list", "--project", "prj_abc"]],
    ["api-keys revoke", ["api-keys", "revoke", "key_1", "--project", "prj_abc"]],
    ["signing-keys rotate", ["signing-keys", "rotate"]],
    ["sessions revoke", ["sessions", "revoke", "--all"]],
    ["secrets reseal", ["secrets", "reseal"]],
    ["service-tokens create", ["service-tokens", "create", "--project", "p", "--environment", "test", "--subject", "s", "--scopes", "otp:read", "--ttl", "60"]],
  ])("takes --json on %s and prints the answer's data as JSON", async (_label, argv) => {
    const data = { answered: "yes" };
    reply = envelope(200, { success: true, data });
    const io = capture();

    expect(await runCli([...argv, "--json"], env(), fetch, io)).toBe(0);

    expect(recorded).toHaveLength(1);
    expect(JSON.parse(io.stdout.join("\n"))).toEqual(data);
  });

  it("takes --json on backup and restore, printing their outcome as JSON", async () => {
    // A DATA_DIR whose stores are elsewhere (MongoDB): secrets.json alone.
    const dir = mkdtempSync(join(tmpdir(), "bayad-cli-"));
    writeFileSync(join(dir, "secrets.json"), "{}", { mode: 0o600 });
    const file = join(dir, "backup.tgz");

    const backup = capture();
    expect(await runCli(["backup", "--to", file, "--data-dir", dir, "--unencrypted", "--json"], {}, fetch, backup)).toBe(0);
    expect(JSON.parse(backup.stdout.join("\n"))).toEqual({ file, stores: [], bytes: expect.any(Number), encryption: "none" });

    const restore = capture();
    expect(await runCli(["restore", "--from", file, "--to", join(dir, "restored"), "--json"], {}, fetch, restore)).toBe(0);
    expect(JSON.parse(restore.stdout.join("\n"))).toEqual({ dir: join(dir, "restored"), stores: [], encryption: "none" });
  });

  describe("events list", () => {
    const event = (n: number) => ({
      id: `evt_${n}`,
      type: "checkout.paid",
      createdAt: new Date(Date.UTC(2030, 0, 1) - n * 1000).toISOString(),
      environment: "test",
      data: { checkoutId: `chk_${n}` },
    });
    /** A stand-in for GET /api/v1/events: `limit` events from the cursor (a number) on, `total` in all. */
    const pagesOf = (total: number) => (request: Recorded) => {
      const query = new URL(request.url!, baseUrl).searchParams;
      const from = Number(query.get("cursor") ?? "0");
      const to = Math.min(total, from + Number(query.get("limit")));
      const events = Array.from({ length: to - from }, (_, i) => event(from + i));
      return envelope(200, { success: true, data: { events, ...(to < total ? { nextCursor: String(to) } : {}) } })();
    };

    it("follows nextCursor until --limit events are in hand, with the project API key and --type", async () => {
      reply = pagesOf(1000);
      const io = capture();

      const argv = ["events", "list", "--type", "checkout.paid", "--limit", "150", "--api-key", "sk_test_abc"];
      expect(await runCli(argv, { BAYAD_URL: baseUrl }, fetch, io)).toBe(0);

      expect(recorded.map(({ method, url, authorization, idempotencyKey }) => ({ method, url, authorization, idempotencyKey }))).toEqual([
        { method: "GET", url: "/api/v1/events?limit=100&type=checkout.paid", authorization: "Bearer sk_test_abc", idempotencyKey: undefined },
        { method: "GET", url: "/api/v1/events?limit=50&type=checkout.paid&cursor=100", authorization: "Bearer sk_test_abc", idempotencyKey: undefined },
      ]);
      expect(io.stdout).toHaveLength(150);
      expect(io.stdout[0]).toBe(`${event(0).createdAt}  checkout.paid             evt_0`);
      expect(io.stdout[149]).toContain("evt_149");
    });

    it("stops at the last page, takes the key from BAYAD_API_KEY and prints the events as JSON with --json", async () => {
      reply = pagesOf(3);
      const io = capture();

      expect(await runCli(["events", "list", "--json"], { BAYAD_URL: baseUrl, BAYAD_API_KEY: "sk_test_env" }, fetch, io)).toBe(0);

      expect(recorded).toMatchObject([{ url: "/api/v1/events?limit=20", authorization: "Bearer sk_test_env" }]);
      expect(JSON.parse(io.stdout.join("\n"))).toEqual([event(0), event(1), event(2)]);
    });

    it("prints the gateway's error and exits 1", async () => {
      reply = envelope(400, { success: false, error: { code: "VALIDATION_FAILED", message: "The request is invalid.", details: ["type is not an event type"] } });
      const io = capture();

      expect(await runCli(["events", "list", "--type", "nope", "--api-key", "sk_test_abc"], { BAYAD_URL: baseUrl }, fetch, io)).toBe(1);

      expect(io.stderr.join("\n")).toBe("VALIDATION_FAILED: The request is invalid.\n  - type is not an event type");
    });

    it.each([
      ["a missing API key", ["events", "list"]],
      ["a --limit that is not a number", ["events", "list", "--limit", "ten", "--api-key", "sk_test_abc"]],
      ["a --limit of 0", ["events", "list", "--limit", "0", "--api-key", "sk_test_abc"]],
      ["an unknown option", ["events", "list", "--api-key", "sk_test_abc", "--colour", "red"]],
    ])("refuses %s with exit status 2 and sends nothing", async (_label, argv) => {
      const io = capture();
      expect(await runCli(argv, { BAYAD_URL: baseUrl }, fetch, io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(/^error: /);
      expect(recorded).toEqual([]);
    });
  });

  describe("listen", () => {
    /** Polls until `probe` answers something, for at most five seconds. */
    async function until<T>(probe: () => T | undefined): Promise<T> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const value = probe();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error("condition not met before the deadline");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** The developer's app: records what it is sent and answers 202. */
    async function startApp() {
      const received: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];
      const app = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
          response.writeHead(202).end();
        });
      });
      await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
      return { url, received, close: () => new Promise<void>((resolve) => app.close(() => resolve())) };
    }

    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    /** The stand-in gateway: creates endpoint we_1 with `secret`, and deletes it. */
    const gatewayAnswers = (deleteStatus = 200) => (request: Recorded) =>
      request.method === "POST"
        ? envelope(201, { success: true, data: { webhookEndpointId: "we_1", secret, enabledEvents: (request.body as { enabledEvents: string[] }).enabledEvents } })()
        : deleteStatus === 200
          ? envelope(200, { success: true, data: { webhookEndpointId: "we_1", deleted: true } })()
          : envelope(deleteStatus, { success: false, error: { code: "INTERNAL", message: "Something failed." } })();

    function signed(eventId: string, payload: string, key = secret) {
      const timestamp = new Date();
      return {
        "content-type": "application/json",
        "webhook-id": eventId,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": new Webhook(key).sign(eventId, timestamp, payload),
      };
    }

    it("registers a temporary endpoint, forwards only deliveries signed with its secret, answers with the app's status, and deletes the endpoint when stopped", async () => {
      reply = gatewayAnswers();
      const app = await startApp();
      const io = capture();
      const stop = new AbortController();

      const argv = ["listen", "--forward-to", app.url, "--events", "checkout.paid, refund.succeeded", "--api-key", "sk_test_abc", "--json"];
      const running = runCli(argv, { BAYAD_URL: baseUrl }, fetch, io, stop.signal);
      const ready = JSON.parse(await until(() => io.stdout[0]));

      expect(ready).toEqual({
        kind: "ready",
        secret,
        webhookEndpointId: "we_1",
        enabledEvents: ["checkout.paid", "refund.succeeded"],
        forwardTo: app.url,
        listeningOn: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      });
      expect(recorded).toEqual([
        {
          method: "POST",
          url: "/api/v1/webhook-endpoints",
          authorization: "Bearer sk_test_abc",
          contentType: "application/json",
          idempotencyKey: expect.any(String),
          body: { url: ready.listeningOn, enabledEvents: ["checkout.paid", "refund.succeeded"], description: "bayad listen (temporary)" },
        },
      ]);

      // A delivery signed with the endpoint's secret reaches the app byte for byte, headers and all.
      const payload = JSON.stringify({ id: "evt_1", type: "checkout.paid", createdAt: "2030-01-01T00:00:00.000Z", environment: "test", data: {} });
      const headers = signed("evt_1", payload);
      const answer = await fetch(ready.listeningOn, { method: "POST", headers, body: payload });
      expect(answer.status).toBe(202);
      expect(app.received).toHaveLength(1);
      expect(app.received[0]!.body).toBe(payload);
      expect(app.received[0]!.headers).toMatchObject(headers);
      expect(JSON.parse(io.stdout[1]!)).toEqual({ kind: "delivery", at: expect.any(String), eventType: "checkout.paid", eventId: "evt_1", status: 202 });

      // An e-wallet intent's event names its method on the line.
      const walletPayload = JSON.stringify({
        id: "evt_3",
        type: "payment_intent.succeeded",
        createdAt: "2030-01-01T00:00:00.000Z",
        environment: "test",
        data: { paymentIntentId: "pi_1", status: "succeeded", paymentMethod: { type: "online_banking", bankCode: "bdo" } },
      });
      expect((await fetch(ready.listeningOn, { method: "POST", headers: signed("evt_3", walletPayload), body: walletPayload })).status).toBe(202);
      expect(JSON.parse(io.stdout.splice(2, 1)[0]!)).toEqual({
        kind: "delivery",
        at: expect.any(String),
        eventType: "payment_intent.succeeded",
        eventId: "evt_3",
        status: 202,
        paymentMethod: "online_banking:bdo",
      });
      app.received.pop();

      // An e-wallet intent waiting for its payer: the line carries the page the payer is sent to.
      const redirectPayload = JSON.stringify({
        id: "evt_4",
        type: "payment_intent.requires_action",
        createdAt: "2030-01-01T00:00:00.000Z",
        environment: "test",
        data: { paymentIntentId: "pi_2", status: "requires_action", paymentMethod: { type: "gcash" }, nextAction: { type: "redirect", url: "https://pay.example.ph/sandbox/intents/pi_2?token=t" } },
      });
      expect((await fetch(ready.listeningOn, { method: "POST", headers: signed("evt_4", redirectPayload), body: redirectPayload })).status).toBe(202);
      expect(JSON.parse(io.stdout.splice(2, 1)[0]!)).toEqual({
        kind: "delivery",
        at: expect.any(String),
        eventType: "payment_intent.requires_action",
        eventId: "evt_4",
        status: 202,
        paymentMethod: "gcash",
        redirectUrl: "https://pay.example.ph/sandbox/intents/pi_2?token=t",
      });
      app.received.pop();

      // Signed with another secret: refused, never forwarded.
      const forged = await fetch(ready.listeningOn, { method: "POST", headers: signed("evt_2", payload, `whsec_${randomBytes(24).toString("base64")}`), body: payload });
      expect(forged.status).toBe(400);
      expect(app.received).toHaveLength(1);
      expect(JSON.parse(io.stdout[2]!)).toMatchObject({ kind: "delivery", eventId: "evt_2", status: null, error: expect.stringContaining("did not verify") });

      // The app is down: the platform is answered 502 (and retries); the line names the error.
      await app.close();
      const down = await fetch(ready.listeningOn, { method: "POST", headers: signed("evt_1", payload), body: payload });
      expect(down.status).toBe(502);
      expect(JSON.parse(io.stdout[3]!)).toMatchObject({ eventType: "checkout.paid", eventId: "evt_1", status: null, error: expect.stringContaining("ECONNREFUSED") });

      stop.abort();
      expect(await running).toBe(0);
      expect(recorded.at(-1)).toMatchObject({ method: "DELETE", url: "/api/v1/webhook-endpoints/we_1", idempotencyKey: expect.any(String) });
      expect(JSON.parse(io.stdout.at(-1)!)).toEqual({ kind: "stopped", webhookEndpointId: "we_1", deleted: true });
      await expect(fetch(ready.listeningOn, { method: "POST", body: payload })).rejects.toThrow();
    });

    it("prints one line per delivery without --json, and every event type when --events is absent", async () => {
      reply = gatewayAnswers();
      const app = await startApp();
      const io = capture();
      const stop = new AbortController();

      const running = runCli(["listen", "--forward-to", app.url], { BAYAD_URL: baseUrl, BAYAD_API_KEY: "sk_test_env" }, fetch, io, stop.signal);
      const ready = await until(() => io.stdout[0]);
      expect(ready).toMatch(new RegExp(`^Ready\\. Your webhook signing secret is ${secret.replace(/[+/]/g, "\\$&")} `));
      expect(recorded[0]).toMatchObject({ authorization: "Bearer sk_test_env", body: { enabledEvents: ["*"] } });

      const listeningOn = (recorded[0]!.body as { url: string }).url;
      const payload = JSON.stringify({ id: "evt_9", type: "refund.succeeded", createdAt: "2030-01-01T00:00:00.000Z", environment: "test", data: {} });
      expect((await fetch(listeningOn, { method: "POST", headers: signed("evt_9", payload), body: payload })).status).toBe(202);
      expect(io.stdout[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}refund\.succeeded {2}evt_9 {2}→ 202$/);

      // Where the payer goes, on the line of an intent waiting for its payer: the wallet's page, or the QR Ph code.
      const deliver = async (eventId: string, data: Record<string, unknown>) => {
        const body = JSON.stringify({ id: eventId, type: "payment_intent.requires_action", createdAt: "2030-01-01T00:00:00.000Z", environment: "test", data });
        expect((await fetch(listeningOn, { method: "POST", headers: signed(eventId, body), body })).status).toBe(202);
        return until(() => io.stdout.find((line) => line.includes(eventId)));
      };
      const page = "https://pay.example.ph/sandbox/intents/pi_7?token=t";
      const wallet = await deliver("evt_10", { paymentIntentId: "pi_7", status: "requires_action", paymentMethod: { type: "gcash" }, nextAction: { type: "redirect", url: page } });
      expect(wallet.replace(/^\S+/, "")).toBe(`  payment_intent.requires_action  evt_10  → 202  (gcash → ${page})`);
      const code = "https://pay.example.ph/sandbox/qrph/pi_8.png?token=t";
      const qr = await deliver("evt_11", { paymentIntentId: "pi_8", status: "requires_action", qrCodeImageUrl: code });
      expect(qr.replace(/^\S+/, "")).toBe(`  payment_intent.requires_action  evt_11  → 202  (qrph → ${code})`);

      stop.abort();
      expect(await running).toBe(0);
      expect(io.stdout.at(-1)).toBe("Stopped. Endpoint we_1 removed.");
      await app.close();
    });

    it("exits 1 naming the endpoint when it cannot remove it", async () => {
      reply = gatewayAnswers(500);
      const io = capture();
      const stop = new AbortController();

      const running = runCli(["listen", "--forward-to", "http://127.0.0.1:9/webhooks", "--api-key", "sk_test_abc"], { BAYAD_URL: baseUrl }, fetch, io, stop.signal);
      await until(() => io.stdout[0]);
      stop.abort();

      expect(await running).toBe(1);
      expect(io.stderr).toEqual([expect.stringMatching(/^error: could not remove endpoint we_1 .*INTERNAL/)]);
    });

    it("refuses a live key in one line without calling the gateway", async () => {
      const io = capture();

      const status = await runCli(["listen", "--forward-to", "http://localhost:3000/webhooks", "--api-key", "sk_live_abc"], { BAYAD_URL: baseUrl }, fetch, io);

      expect(status).toBe(2);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).not.toContain("\n");
      expect(io.stderr[0]).toMatch(/test-mode/);
      expect(recorded).toEqual([]);
    });

    it.each([
      ["a missing --forward-to", ["listen", "--api-key", "sk_test_abc"]],
      ["a --forward-to that is not an http URL", ["listen", "--forward-to", "localhost:3000", "--api-key", "sk_test_abc"]],
      ["an --events naming no type", ["listen", "--forward-to", "http://localhost:3000/", "--events", " , ", "--api-key", "sk_test_abc"]],
      ["a missing API key", ["listen", "--forward-to", "http://localhost:3000/"]],
      ["a positional argument", ["listen", "http://localhost:3000/", "--api-key", "sk_test_abc"]],
    ])("refuses %s with exit status 2 and registers nothing", async (_label, argv) => {
      const io = capture();
      expect(await runCli(argv, { BAYAD_URL: baseUrl }, fetch, io)).toBe(2);
      expect(io.stderr.join("\n")).toMatch(/^error: /);
      expect(recorded).toEqual([]);
    });
  });

  it("prints usage for help without needing the admin key", async () => {
    const io = capture();

    const status = await runCli(["help"], {}, fetch, io);

    expect(status).toBe(0);
    expect(io.stdout.join("\n")).toContain("service-tokens create");
    expect(io.stdout.join("\n")).toContain("listen --forward-to");
    expect(io.stdout.join("\n")).toContain("events list");
    expect(recorded).toEqual([]);
  });
});

import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBase62 } from "@bayad/kit";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { apiClientFor, newIdempotencyKey } from "../test-support/harness.js";
import { bannerOf, temporaryPlatforms } from "../test-support/platform-process.js";

/**
 * What an attacker holding a copy of DATA_DIR, or a backup of it, can read: none of the secrets
 * the platform issued or was given (webhook signing secrets, API keys, service tokens, provider
 * keys, OTP codes), in any store, in any collection (idempotency records included), nor in the
 * platform's log. secrets.json, the key that opens what is sealed, is what a backup's encryption
 * protects; this test is about everything else.
 */

const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");
const run = promisify(execFile);

/** Every file under `dir`, by its path relative to `dir`. */
function filesUnder(dir: string, prefix = ""): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const [name, bytes] of filesUnder(path, `${prefix}${entry.name}/`)) files.set(name, bytes);
    else if (entry.isFile()) files.set(`${prefix}${entry.name}`, readFileSync(path));
  }
  return files;
}

/** "<secret> in <file>" for each secret found in a file: what the test expects to be empty. */
function exposures(files: Map<string, Buffer>, secrets: Record<string, Buffer>): string[] {
  const found: string[] = [];
  for (const [file, bytes] of files) {
    for (const [label, secret] of Object.entries(secrets)) if (bytes.includes(secret)) found.push(`${label} in ${file}`);
  }
  return found;
}

describe("secrets at rest (npm start, DATA_DIR)", () => {
  const platforms = temporaryPlatforms("bayad-secrets-at-rest-");
  let simulator: PaymongoSimulator;
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
    receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await simulator?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it("keeps none of the issued secrets readable in any file of DATA_DIR, in a backup, or in the log", async () => {
    const dataDir = join(platforms.parent(), "data");
    const platform = platforms.launch({ DATA_DIR: dataDir, PAYMONGO_API_BASE: simulator.url });
    const banner = await bannerOf(platform);
    const api = apiClientFor(banner);
    const secrets: Record<string, Buffer> = {};
    const keep = (label: string, text: string) => (secrets[label] = Buffer.from(text, "utf8"));
    const keepWebhookSecret = (label: string, secret: string) => {
      expect(secret).toMatch(/^whsec_/);
      keep(label, secret);
      // The signing key itself, as receivers decode it (Standard Webhooks).
      secrets[`${label} (its key bytes)`] = Buffer.from(secret.slice("whsec_".length), "base64");
    };

    // A webhook endpoint, created, its creation replayed, then rotated (and that replayed).
    const createKey = newIdempotencyKey();
    const createBody = { url: receiverUrl, enabledEvents: ["*"] };
    const created = await api.request("POST", "/api/v1/webhook-endpoints", { body: createBody, idempotencyKey: createKey });
    expect(created.status).toBe(201);
    const endpointId = created.body.data.webhookEndpointId as string;
    keepWebhookSecret("the created endpoint's secret", created.body.data.secret as string);
    const createReplayed = await api.request("POST", "/api/v1/webhook-endpoints", { body: createBody, idempotencyKey: createKey });
    expect(createReplayed.status).toBe(201);
    expect(createReplayed.headers.get("Idempotent-Replayed")).toBe("true");
    expect(createReplayed.body.data.secret).toBe(created.body.data.secret);

    const rotateKey = newIdempotencyKey();
    const rotatePath = `/api/v1/webhook-endpoints/${endpointId}/rotate-secret`;
    const rotated = await api.request("POST", rotatePath, { idempotencyKey: rotateKey });
    expect(rotated.status).toBe(200);
    keepWebhookSecret("the rotated endpoint's secret", rotated.body.data.secret as string);
    const rotateReplayed = await api.request("POST", rotatePath, { idempotencyKey: rotateKey });
    expect(rotateReplayed.headers.get("Idempotent-Replayed")).toBe("true");
    expect(rotateReplayed.body.data.secret).toBe(rotated.body.data.secret);

    // An API key and a service token, issued by the admin API.
    const project = await api.admin("POST", "/admin/v1/projects", { name: "Kape Delivery" });
    const projectId = project.body.data.projectId as string;
    const apiKey = await api.admin("POST", `/admin/v1/projects/${projectId}/api-keys`, { environment: "test" });
    expect(apiKey.status).toBe(201);
    keep("an issued API key", apiKey.body.data.apiKey as string);
    const token = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId: banner.projectId,
      environment: "test",
      subject: "login-service",
      scopes: ["otp:generate", "otp:verify", "otp:read"],
    });
    expect(token.status).toBe(201);
    const accessToken = token.body.data.accessToken as string;
    keep("a service token", accessToken);
    keep("a service token's signature", accessToken.split(".")[2]!);

    // A provider account's secret key (the PayMongo simulator stands in for PayMongo).
    const providerKey = `sk_test_${randomBase62(24)}`;
    const account = await api.admin("PUT", `/admin/v1/projects/${projectId}/provider-accounts/test`, {
      provider: "paymongo",
      secretKey: providerKey,
      paymentMethodTypes: ["qrph", "card"],
    });
    expect(account.status).toBe(201);
    keep("a provider secret key", providerKey);

    // An OTP, its code read from the development outbox (where a phone would show it).
    const recipient = "+639171234567";
    const otp = await api.request("POST", "/api/v1/shared/otp/generate", { body: { recipient, channel: "sms" }, credential: accessToken });
    expect(otp.status).toBe(201);
    const outbox = await api.admin("GET", `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`);
    const message = (outbox.body.data as Array<{ otpId: string; body: string }>).find((entry) => entry.otpId === otp.body.data.otpId);
    const code = message?.body.match(/code is (\d{6})/)?.[1];
    expect(code).toBeDefined();
    // The code as its message spells it: six digits alone would turn up by chance in megabytes of data.
    keep("an OTP code", `code is ${code}`);

    // Stopped, so that everything acknowledged is in the files (a running platform's are read the same).
    platform.child.kill("SIGTERM");
    expect(await platform.exited).toBe(0);
    expect(exposures(filesUnder(dataDir), secrets)).toEqual([]);
    expect(exposures(new Map([["the log", Buffer.from(platform.output())]]), secrets)).toEqual([]);

    // A backup, unencrypted so that its content can be read: the archive unzipped holds each file as is.
    const backupFile = join(platforms.parent(), "bayad.tgz");
    await run(process.execPath, [cliPath, "backup", "--to", backupFile, "--data-dir", dataDir, "--unencrypted"], { env: { PATH: process.env.PATH ?? "" } });
    expect(statSync(backupFile).size).toBeGreaterThan(0);
    expect(exposures(new Map([["the backup", gunzipSync(readFileSync(backupFile))]]), secrets)).toEqual([]);
  }, 90_000);
});

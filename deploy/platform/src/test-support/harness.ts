import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { createLogger } from "@bayad/kit";
import { createResponseValidator, startGateway, type RunningGateway } from "@bayad/gateway";
import { startPlatform, type InThreadPlatform, type PlatformOptions, type RunningPlatform } from "../platform.js";

export interface ApiResponse {
  status: number;
  headers: Headers;
  // The parsed JSON body; tests read into it freely.
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed-body tests. */
  rawBody?: string;
  /** Bearer credential; defaults to the platform's test API key; null sends none. */
  credential?: string | null;
  /** Defaults to a fresh key on POST/PATCH; null sends none. */
  idempotencyKey?: string | null;
  headers?: Record<string, string>;
  /** Skip the OpenAPI check (for routes outside the contract). */
  unchecked?: boolean;
}

export function newIdempotencyKey(): string {
  return `test-${randomBytes(12).toString("hex")}`;
}

/** `prefix-` and 16 random hex digits: a reference, name or namespace no other test uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString("hex")}`;
}

/** An error in the envelope: the status, success false and the error code. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
}

/**
 * Whether a suite that needs something from the machine (NATS, Chromium) can run: `missing`
 * says what is absent, or is undefined when nothing is. Outside CI the suite is skipped with a
 * note; in CI (CI set) a missing prerequisite is a failing test naming it, never a silent skip.
 */
export function prerequisiteMet(suite: string, missing: string | undefined): boolean {
  if (missing === undefined) return true;
  if (process.env.CI && process.env.CI !== "false") {
    it(`${suite}: runs in CI`, () => {
      throw new Error(`${suite} cannot run in CI: ${missing}`);
    });
  } else {
    console.info(`Skipping ${suite}: ${missing}`);
  }
  return false;
}

const checkResponse = createResponseValidator();

/** A test platform's configuration: free ports, its own admin key, quick idempotency reconciliation; then `env`. */
export function testPlatformEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: "0",
    // The gateway's internal metrics listener, on a free port too: suites run side by side.
    METRICS_PORT: "0",
    ADMIN_API_KEY: `adm_test_${randomBytes(16).toString("hex")}`,
    IDEMPOTENCY_RECONCILE_INTERVAL_MS: "100",
    IDEMPOTENCY_RETRY_BASE_MS: "50",
    // Far above the defaults: suites send bursts (50 concurrent requests with one key) with one
    // credential; the rate-limit suite sets its own small limits.
    RATE_LIMIT_CREDENTIAL_READS: "100000",
    RATE_LIMIT_CREDENTIAL_WRITES: "100000",
    RATE_LIMIT_PROJECT_READS: "100000",
    RATE_LIMIT_PROJECT_WRITES: "100000",
    ...env,
  };
}

export const testLogger = () => createLogger("test", process.env.LOG_LEVEL ?? "silent");

/**
 * The platform started as `npm start` starts it, but with its services on this thread, on a free
 * port, plus a client that checks every response it receives against the OpenAPI document.
 */
export async function startTestPlatform(env: Record<string, string> = {}, options: Omit<PlatformOptions, "env" | "servicesThread"> = {}) {
  const platform: InThreadPlatform = await startPlatform({
    // On the test's thread, so that tests can look into the services' stores; the worker thread
    // that `npm start` uses has its own suite (services-thread.test.ts).
    servicesThread: "main",
    env: testPlatformEnv(env),
    logger: testLogger(),
    ...options,
  });
  return { platform, ...apiClientFor(platform), close: () => platform.close() };
}

/**
 * Another gateway replica of `platform`, as a second pod would be: the same configuration
 * (limits, GATEWAY_SECRET) and the same gateway store, its own port, the same payments service.
 */
export function startGatewayReplica(platform: InThreadPlatform): Promise<RunningGateway> {
  return startGateway({
    config: { ...platform.config, port: 0 },
    store: platform.stores.gateway,
    services: { payments: platform.services.payments.url },
    logger: testLogger(),
  });
}

/**
 * A client of a running platform's API that checks every response against the OpenAPI document
 * (of a platform in this process, or one whose banner a test read).
 */
export function apiClientFor(platform: Pick<RunningPlatform, "gatewayUrl" | "testApiKey" | "adminApiKey">) {
  async function request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const credential = options.credential === undefined ? platform.testApiKey : options.credential;
    if (credential !== null) headers.Authorization = `Bearer ${credential}`;
    const mutation = method !== "GET";
    const key = options.idempotencyKey === undefined ? (mutation ? newIdempotencyKey() : null) : options.idempotencyKey;
    if (key !== null) headers["Idempotency-Key"] = key;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["Content-Type"] ??= "application/json";
    }
    const response = await fetch(`${platform.gatewayUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (!options.unchecked) {
      const check = checkResponse(method, path, response.status, parsed);
      if (check.problems.length > 0) {
        throw new Error(
          `${method} ${path} → ${response.status} does not match the OpenAPI document: ${check.problems.join("; ")}\n${text}`,
        );
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  const admin = (method: string, path: string, body?: unknown) =>
    request(method, path, { body, credential: platform.adminApiKey, idempotencyKey: null });

  /** A fresh project with a test and a live API key. */
  async function newProject(name = "Test project") {
    const project = await admin("POST", "/admin/v1/projects", { name });
    const projectId = project.body.data.projectId as string;
    const test = await admin("POST", `/admin/v1/projects/${projectId}/api-keys`, { environment: "test" });
    const live = await admin("POST", `/admin/v1/projects/${projectId}/api-keys`, { environment: "live" });
    return { projectId, testKey: test.body.data.apiKey as string, liveKey: live.body.data.apiKey as string };
  }

  /** A development service token of a project with the given scopes. */
  async function serviceToken(projectId: string, scopes: string[], environment = "test", ttlSeconds = 600) {
    const response = await admin("POST", "/admin/v1/service-tokens", {
      projectId,
      environment,
      subject: "test-service",
      scopes,
      ttlSeconds,
    });
    if (response.status !== 201) throw new Error(`could not issue a token: ${JSON.stringify(response.body)}`);
    return response.body.data.accessToken as string;
  }

  /** A test-mode checkout created and paid through the sandbox's test helper: the paid checkout as the API answers it. */
  async function paidCheckout(credential?: string, amountMinor = 1250_00) {
    const checkout = await request("POST", "/api/v1/payments/checkouts", {
      body: {
        referenceId: unique("order"),
        amount: { amountMinor, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
      credential,
    });
    expect(checkout.status).toBe(201);
    const paid = await request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.body.data.checkoutId}/pay`, { credential });
    expect(paid.status).toBe(200);
    return paid.body.data as { checkoutId: string; referenceId: string; status: string };
  }

  return { request, admin, newProject, serviceToken, paidCheckout };
}

export type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;

/** Polls `probe` until it returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met before the deadline");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

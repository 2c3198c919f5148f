import type { PlatformReady } from "./platform-protocol.js";

/**
 * The few calls the benchmark makes before a scenario (one checkout to read, an OTP to verify
 * against), through the gateway like any client. Each throws, with the response, when the
 * platform answers otherwise than the scenario needs: a scenario set up on a failure would
 * measure the failure.
 */

export interface ApiAnswer<Data = unknown> {
  status: number;
  // The parsed envelope; callers name the fields of `data` their operation documents.
  body: { data: Data };
}

interface CallOptions {
  credential: string;
  body?: unknown;
  idempotencyKey?: string;
}

export async function callApi<Data = unknown>(baseUrl: string, method: string, path: string, options: CallOptions): Promise<ApiAnswer<Data>> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.credential}` };
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as { data: Data } };
  } catch {
    throw new Error(`${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
}

function expectStatus(answer: ApiAnswer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
  }
}

/** Creates one checkout with `body` under `idempotencyKey`; returns its id. */
export async function createCheckout(platform: PlatformReady, body: unknown, idempotencyKey: string): Promise<string> {
  const answer = await callApi<{ checkoutId: string }>(platform.gatewayUrl, "POST", "/api/v1/payments/checkouts", {
    credential: platform.testApiKey,
    body,
    idempotencyKey,
  });
  expectStatus(answer, 201, "createCheckout");
  return answer.body.data.checkoutId;
}

/**
 * A development service token of the platform's project: the OTP API takes service tokens only
 * (project API keys get 403 SERVICE_TOKEN_REQUIRED), so scenario 6 cannot use the test API key.
 */
export async function issueOtpToken(platform: PlatformReady): Promise<string> {
  const answer = await callApi<{ accessToken: string }>(platform.gatewayUrl, "POST", "/admin/v1/service-tokens", {
    credential: platform.adminApiKey,
    body: {
      projectId: platform.projectId,
      environment: "test",
      subject: "bayad-bench",
      scopes: ["otp:generate", "otp:verify"],
      ttlSeconds: 86_400,
    },
  });
  expectStatus(answer, 201, "createServiceToken");
  return answer.body.data.accessToken;
}

/** Sends one code to `recipient` (the development outbox keeps it); returns the code's id. */
export async function generateOtp(platform: PlatformReady, token: string, recipient: string, idempotencyKey: string): Promise<string> {
  const answer = await callApi<{ otpId: string }>(platform.gatewayUrl, "POST", "/api/v1/shared/otp/generate", {
    credential: token,
    body: { recipient, channel: "sms" },
    idempotencyKey,
  });
  expectStatus(answer, 201, "generateOtp");
  return answer.body.data.otpId;
}

/** The code the development outbox holds for `otpId`, read the way an operator would. */
export async function readOtpCode(platform: PlatformReady, recipient: string, otpId: string): Promise<string> {
  const answer = await callApi<{ otpId: string; body: string }[]>(
    platform.gatewayUrl,
    "GET",
    `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`,
    { credential: platform.adminApiKey },
  );
  expectStatus(answer, 200, "listOtpDevMessages");
  const messages = answer.body.data;
  const text = messages.find((message) => message.otpId === otpId)?.body;
  const code = text === undefined ? undefined : /\b(\d{4,10})\b/.exec(text)?.[1];
  if (code === undefined) throw new Error(`no code for ${otpId} in the development outbox of ${recipient}`);
  return code;
}

/** Pays a pending test-mode checkout as its payer would (the sandbox's test helper); returns its status after the move. */
export async function payCheckout(platform: PlatformReady, checkoutId: string, idempotencyKey: string): Promise<string> {
  const answer = await callApi<{ status: string }>(platform.gatewayUrl, "POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`, {
    credential: platform.testApiKey,
    idempotencyKey,
  });
  expectStatus(answer, 200, "payCheckoutTestHelper");
  return answer.body.data.status;
}

/** Registers a webhook endpoint of the test API key's project for `enabledEvents`; returns its id and signing secret. */
export async function createWebhookEndpoint(
  platform: PlatformReady,
  url: string,
  enabledEvents: string[],
  idempotencyKey: string,
): Promise<{ webhookEndpointId: string; secret: string }> {
  const answer = await callApi<{ webhookEndpointId: string; secret: string }>(platform.gatewayUrl, "POST", "/api/v1/webhook-endpoints", {
    credential: platform.testApiKey,
    body: { url, enabledEvents, description: "bayad-bench delivery latency" },
    idempotencyKey,
  });
  expectStatus(answer, 201, "createWebhookEndpoint");
  return answer.body.data;
}

export async function deleteWebhookEndpoint(platform: PlatformReady, webhookEndpointId: string, idempotencyKey: string): Promise<void> {
  const answer = await callApi(platform.gatewayUrl, "DELETE", `/api/v1/webhook-endpoints/${webhookEndpointId}`, {
    credential: platform.testApiKey,
    idempotencyKey,
  });
  expectStatus(answer, 200, "deleteWebhookEndpoint");
}

import { randomBytes } from "node:crypto";

/** A fresh secret key: each is an account of its own at the simulator. */
export function newSecretKey(mode: "test" | "live" = "test"): string {
  return `xnd_${mode === "live" ? "production" : "development"}_${randomBytes(18).toString("hex")}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  // Tests read Xendit's JSON freely.
  body: any;
}

/** A minimal Xendit client for the tests: Basic auth with the key, `api-version` on v3 paths. */
export function apiClient(baseUrl: string, key: string = newSecretKey()) {
  const authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json", ...(path.startsWith("/v3/") ? { "api-version": "2024-11-11" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
  }
  return {
    key,
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body, headers),
    /** Creates and expects a 2xx, returning the body. */
    async create(path: string, body: unknown) {
      const answer = await call("POST", path, body);
      if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

export const paymentRequestBody = (overrides: Record<string, unknown> = {}) => ({
  reference_id: "order-42",
  type: "PAY",
  country: "PH",
  currency: "PHP",
  request_amount: 150.5,
  channel_code: "GCASH",
  channel_properties: { success_return_url: "https://shop.example.ph/ok", failure_return_url: "https://shop.example.ph/fail" },
  ...overrides,
});

export const sessionBody = (overrides: Record<string, unknown> = {}) => ({
  reference_id: "checkout-7",
  session_type: "PAY",
  mode: "PAYMENT_LINK",
  amount: 250,
  currency: "PHP",
  country: "PH",
  success_return_url: "https://shop.example.ph/ok",
  cancel_return_url: "https://shop.example.ph/cancel",
  ...overrides,
});

export const invoiceBody = (overrides: Record<string, unknown> = {}) => ({
  external_id: "link_7",
  amount: 499.99,
  description: "A yoga class",
  currency: "PHP",
  success_redirect_url: "https://shop.example.ph/ok",
  failure_redirect_url: "https://shop.example.ph/fail",
  ...overrides,
});

/** A paid GCash request of `amount` pesos, ready to refund. */
export async function paidRequest(api: ApiClient, amount = 150.5): Promise<string> {
  const request = await api.create("/v3/payment_requests", paymentRequestBody({ request_amount: amount }));
  const simulated = await api.post(`/v3/payment_requests/${request.payment_request_id}/simulate`, { amount });
  if (simulated.status !== 200) throw new Error(`simulate: ${simulated.status} ${JSON.stringify(simulated.body)}`);
  return request.payment_request_id;
}

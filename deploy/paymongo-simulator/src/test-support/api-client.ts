import { randomBytes } from "node:crypto";

/** A fresh well-formed secret key: each one is an account of its own at the simulator. */
export function newSecretKey(mode: "test" | "live" = "test"): string {
  return `sk_${mode}_${randomBytes(18).toString("hex")}`;
}

export interface Answer {
  status: number;
  // Tests read PayMongo's JSON freely.
  body: any;
}

/** A minimal PayMongo client for the tests: Basic auth with the key, JSON:API bodies. */
export function apiClient(baseUrl: string, key: string = newSecretKey()) {
  const authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
  async function call(method: string, path: string, attributes?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json", ...headers },
      body: attributes === undefined ? undefined : JSON.stringify({ data: { attributes } }),
    });
    // PayMongo's 429 is plain text, not JSON: such a body is kept as its text.
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body };
  }
  return {
    key,
    get: (path: string) => call("GET", path),
    post: (path: string, attributes?: Record<string, unknown>, headers?: Record<string, string>) => call("POST", path, attributes, headers),
    put: (path: string, attributes: Record<string, unknown>) => call("PUT", path, attributes),
    /** Creates and expects a 200, returning `data`. */
    async create(path: string, attributes: Record<string, unknown>) {
      const answer = await call("POST", path, attributes);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

export const checkoutSessionAttributes = (overrides: Record<string, unknown> = {}) => ({
  line_items: [{ name: "Kape", amount: 7500, currency: "PHP", quantity: 2 }],
  payment_method_types: ["gcash", "qrph"],
  success_url: "https://shop.example.ph/success",
  cancel_url: "https://shop.example.ph/cancel",
  reference_number: "order-42",
  description: "Two coffees",
  metadata: { bayad_id: "chk_1" },
  ...overrides,
});

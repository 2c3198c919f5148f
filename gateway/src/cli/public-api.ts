import { randomUUID } from "node:crypto";
import { CommandFailure, UsageError, defaultUrl, describe, optional, type Values } from "./cli-support.js";

/**
 * The public API (`/api/v1/…`) as a project's API key reaches it, for the commands a developer
 * runs (`listen`, `events list`) rather than an operator. Plain fetch, not @bayad/sdk: the SDK's
 * tests run the platform, which depends on this package.
 */
export interface PublicApi {
  /** The credential, to check its mode before using it. */
  readonly apiKey: string;
  request<T>(method: "GET" | "POST" | "DELETE", path: string, body?: Record<string, unknown>): Promise<T>;
}

/** The options every public-API command takes. */
export const publicApiOptions = {
  "api-key": { type: "string" },
  gateway: { type: "string" },
  json: { type: "boolean" },
} as const;

const requestTimeoutMs = 30_000;

/** The API key (--api-key, else BAYAD_API_KEY) and gateway (--gateway, else BAYAD_URL, else npm start's). */
export function publicApiFrom(values: Values, env: Record<string, string | undefined>, fetchImpl: typeof fetch): PublicApi {
  const apiKey = optional(values, "api-key") ?? env.BAYAD_API_KEY?.trim();
  if (!apiKey) throw new UsageError("give a project API key with --api-key or BAYAD_API_KEY");
  const baseText = optional(values, "gateway") ?? (env.BAYAD_URL?.trim() || defaultUrl);
  let base: URL;
  try {
    // Relative resolution keeps a path prefix (a gateway behind /bayad/, say).
    base = new URL(baseText.endsWith("/") ? baseText : `${baseText}/`);
  } catch {
    throw new UsageError(`the gateway URL is not a valid URL: "${baseText}"`);
  }

  async function request<T>(method: "GET" | "POST" | "DELETE", path: string, body?: Record<string, unknown>): Promise<T> {
    const url = new URL(path, base);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: "application/json",
          // The gateway remembers the outcome under this key, so a repeated mutation is harmless.
          ...(method === "GET" ? {} : { "idempotency-key": randomUUID() }),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      throw new CommandFailure(`error: cannot reach ${url.origin}: ${describe(error)}`);
    }
    let envelope: { success?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
    try {
      envelope = (await response.json()) as typeof envelope;
    } catch {
      envelope = undefined;
    }
    if (envelope?.success === true && "data" in envelope) return envelope.data as T;
    const error = envelope?.success === false ? envelope.error : undefined;
    if (typeof error?.code === "string" && typeof error.message === "string") {
      const details = Array.isArray(error.details) ? error.details.filter((detail): detail is string => typeof detail === "string") : [];
      throw new CommandFailure(`${error.code}: ${error.message}`, details);
    }
    // Something other than the gateway answered (a proxy's error page, a wrong URL).
    throw new CommandFailure(`error: unexpected response from ${url.origin}${url.pathname}: HTTP ${response.status}`);
  }

  return { apiKey, request };
}

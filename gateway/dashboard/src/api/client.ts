/**
 * The dashboard's one way to the gateway. The browser holds no credential: the session cookie
 * (HttpOnly, set by POST /dashboard/api/session) authenticates every call, and the session's
 * CSRF token, kept in memory only, goes with every call that changes something. Project calls
 * (`/api/v1/…`) name the project and environment the operator acts for.
 */

export type Environment = "test" | "live";

/** Which project and environment a `/api/v1/…` call acts for. */
export interface ActingFor {
  projectId: string;
  environment: Environment;
}

/** An error envelope from the gateway, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string[] = [],
    readonly correlationId?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export type Query = Record<string, string | number | undefined | null>;

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Query;
  body?: unknown;
  /** Required for `/api/v1/…` paths. */
  actingFor?: ActingFor;
  /** Sent as Idempotency-Key; pass the same key when retrying the same intent. */
  idempotencyKey?: string;
}

let csrfToken: string | undefined;
let onSignedOut: (() => void) | undefined;

/** Set by the session module when a session starts or is found; cleared at sign-out. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the gateway says the session is gone (expired, or ended elsewhere). */
export function onSessionLost(handler: () => void): void {
  onSignedOut = handler;
}

export function pathWithQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function headersFor(method: string, options: RequestOptions, accept: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept };
  if (method !== "GET") {
    if (csrfToken) headers["X-CSRF-Token"] = csrfToken;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
  }
  if (options.actingFor) {
    headers["Bayad-Project"] = options.actingFor.projectId;
    headers["Bayad-Environment"] = options.actingFor.environment;
  }
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  return headers;
}

async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const method = options.method ?? "GET";
  try {
    return await fetch(pathWithQuery(path, options.query), {
      method,
      headers: headersFor(method, options, accept),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
    });
  } catch (error) {
    throw new ApiError(0, "NETWORK_ERROR", "The gateway could not be reached. Check that it is running, then retry.", [
      error instanceof Error ? error.message : String(error),
    ]);
  }
}

/** The ApiError of a response that is not a success, from its error envelope when it has one. */
async function failureOf(path: string, response: Response): Promise<ApiError> {
  const envelope = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; details?: unknown } } | undefined;
  const error = envelope?.error;
  if (response.status === 401 && path !== "/dashboard/api/session") onSignedOut?.();
  return new ApiError(
    response.status,
    error?.code ?? "UNEXPECTED_RESPONSE",
    error?.message ?? `The gateway answered ${response.status}.`,
    Array.isArray(error?.details) ? error.details.map(String) : [],
    response.headers.get("X-Correlation-Id") ?? undefined,
  );
}

/** Calls the gateway and answers the envelope's `data`; throws ApiError otherwise. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, "application/json");
  if (response.status === 204) return undefined as T;
  if (response.ok) {
    const envelope = (await response.clone().json().catch(() => undefined)) as { data?: T } | undefined;
    if (envelope && "data" in envelope) return envelope.data as T;
  }
  throw await failureOf(path, response);
}

/**
 * A file the gateway streams (a CSV export): the successful response itself, its body not yet
 * read, so the caller consumes it as it arrives; throws ApiError (from the envelope) otherwise.
 * A plain link cannot carry the Bayad-Project/Bayad-Environment headers, hence fetch.
 */
export async function requestFile(path: string, options: RequestOptions & { accept: string }): Promise<Response> {
  const response = await send(path, options, options.accept);
  if (response.ok) return response;
  throw await failureOf(path, response);
}

/** A fresh Idempotency-Key: one per user intent (a form submission), reused on its retries. */
export function newIdempotencyKey(): string {
  return `dash_${crypto.randomUUID()}`;
}

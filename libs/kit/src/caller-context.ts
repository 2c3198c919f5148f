import { createContextKey, createContextValues, type CallOptions, type ContextValues, type HandlerContext } from "@connectrpc/connect";
import { AppError } from "./errors/app-error.js";

export type Environment = "test" | "live";

export function isEnvironment(value: unknown): value is Environment {
  return value === "test" || value === "live";
}

/**
 * Who is calling, as the gateway established it. It travels to services as gRPC metadata; every
 * service query filters on projectId and environment. Services trust it because only the gateway
 * can reach them (network policy).
 */
export interface CallerContext {
  projectId: string;
  environment: Environment;
  correlationId: string;
  /** Present on mutations: services record it uniquely on what they create. */
  idempotencyKey?: string;
  /**
   * When the gateway recorded this use of the key (ms since the epoch), the same on a first
   * attempt and on every reconciliation of it: a service's window for the key runs from here, so
   * both layers forget it at the same moment, and a service's claim older than this belongs to
   * an earlier use of the key that the gateway has already forgotten.
   */
  idempotencyKeyCreatedAt?: number;
}

const header = {
  projectId: "bayad-project-id",
  environment: "bayad-environment",
  correlationId: "bayad-correlation-id",
  idempotencyKey: "bayad-idempotency-key",
  idempotencyKeyCreatedAt: "bayad-idempotency-key-created-at",
} as const;

/**
 * The caller as a context value as well: a service in this process (kit's direct transport hands
 * the call's context values to the handler) reads it there instead of parsing the metadata. Over
 * the network context values stay with the client, so a remote service reads the metadata.
 */
const callerKey = createContextKey<CallerContext | undefined>(undefined, { description: "the gateway's caller" });

/** The caller a call's context values carry, if any (for a transport that passes it on). */
export function callerValueOf(values: ContextValues): CallerContext | undefined {
  return values.get(callerKey);
}

/** Sets `caller` in `values`, as callerCallOptions does (for a transport that passes it on). */
export function setCallerValue(values: ContextValues, caller: CallerContext): ContextValues {
  return values.set(callerKey, caller);
}

/** Options for an rpc on behalf of `caller`: the caller as metadata and as a context value, and the deadline. */
export function callerCallOptions(caller: CallerContext, timeoutMs: number): CallOptions {
  return { headers: callerHeaders(caller), contextValues: createContextValues().set(callerKey, caller), timeoutMs };
}

export function callerHeaders(caller: CallerContext): Record<string, string> {
  const headers: Record<string, string> = {
    [header.projectId]: caller.projectId,
    [header.environment]: caller.environment,
    [header.correlationId]: caller.correlationId,
  };
  if (caller.idempotencyKey !== undefined) headers[header.idempotencyKey] = caller.idempotencyKey;
  if (caller.idempotencyKeyCreatedAt !== undefined) headers[header.idempotencyKeyCreatedAt] = String(caller.idempotencyKeyCreatedAt);
  return headers;
}

export function callerFromHeaders(headers: Headers): CallerContext {
  const projectId = headers.get(header.projectId);
  const environment = headers.get(header.environment);
  if (!projectId || !isEnvironment(environment)) {
    throw new AppError("AUTHENTICATION_REQUIRED", "The call carries no caller context.");
  }
  const keyCreatedAt = Number(headers.get(header.idempotencyKeyCreatedAt) ?? Number.NaN);
  return {
    projectId,
    environment,
    correlationId: headers.get(header.correlationId) ?? "",
    idempotencyKey: headers.get(header.idempotencyKey) ?? undefined,
    ...(Number.isSafeInteger(keyCreatedAt) && keyCreatedAt > 0 ? { idempotencyKeyCreatedAt: keyCreatedAt } : {}),
  };
}

/** The caller of a service method. */
export function callerOf(context: HandlerContext): CallerContext {
  return context.values.get(callerKey) ?? callerFromHeaders(context.requestHeader);
}

/** The caller of a mutation: the Idempotency-Key must be there. */
export function mutatingCallerOf(context: HandlerContext): CallerContext & { idempotencyKey: string } {
  const caller = callerOf(context);
  if (!caller.idempotencyKey) throw new AppError("IDEMPOTENCY_KEY_REQUIRED");
  return caller as CallerContext & { idempotencyKey: string };
}

/** The correlation id a call carries (empty when the caller sent none), for the service's logs. */
export function correlationIdOf(headers: Headers): string {
  return headers.get(header.correlationId) ?? "";
}

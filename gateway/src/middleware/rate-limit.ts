import type { Middleware } from "koa";
import { rateLimitedError, type RateLimitCharge, type RateLimitLeases, type RateLimitOutcome, type RateLimitSetting, type RateLimitState } from "@bayad/kit";
import { StoreNotWritableError } from "@bayad/store";
import type { OperationSpec } from "../openapi/document.js";
import type { Caller } from "../auth/caller.js";

/** The limits of one kind of request (GET is a read, every other method a write). */
export interface RequestRateLimits {
  reads: RateLimitSetting;
  writes: RateLimitSetting;
}

/** RATE_LIMIT_*: each credential's limits, and its project and environment's (all its credentials together). */
export interface RateLimitSettings {
  credential: RequestRateLimits;
  project: RequestRateLimits;
}

/**
 * Charges every request of an operation called with a project credential (API key or service
 * token) to two sliding-window limits: the credential's (its API key id or its token's subject,
 * never the secret) and its project and environment's, reads and writes apart. It runs after
 * authentication, so only an authenticated caller is counted; admin, health and docs routes are
 * not limited. Every answer after it carries the IETF draft's `RateLimit-Policy` and `RateLimit`
 * fields (draft-ietf-httpapi-ratelimit-headers); a refused request is 429 `RATE_LIMITED` with
 * `Retry-After` as well, and reaches nothing after this middleware. While the store cannot write,
 * requests pass uncounted (see below).
 */
export function rateLimit(spec: OperationSpec, leases: RateLimitLeases, settings: RateLimitSettings): Middleware {
  const kind = spec.method === "GET" ? "reads" : "writes";
  const credentialLimit = { scope: `credential-${kind}`, setting: settings.credential[kind] };
  const projectLimit = { scope: `project-${kind}`, setting: settings.project[kind] };
  const policy = [credentialLimit, projectLimit]
    .map(({ scope, setting }) => `"${scope}";q=${setting.limit};w=${setting.windowSeconds}`)
    .join(", ");

  return async function rateLimit(ctx, next) {
    const caller = ctx.state.caller as Caller;
    const tenant = `${caller.projectId}:${caller.environment}`;
    // A token's subject names a client only within its project: the tenant makes it one credential.
    const credential = `${tenant}:${caller.kind}:${caller.subject}`;
    const charges: RateLimitCharge[] = [
      { scope: credentialLimit.scope, setting: credentialLimit.setting, key: credential },
      { scope: projectLimit.scope, setting: projectLimit.setting, key: tenant },
    ];
    let outcome: RateLimitOutcome;
    try {
      // Most calls are served from a lease at once: awaiting only a renewal saves every other
      // call a turn of the microtask queue.
      const taken = leases.take(`${kind}:${credential}`, charges);
      outcome = taken instanceof Promise ? await taken : taken;
    } catch (error) {
      // The gateway's store cannot write (full or read-only disk), so nothing can be counted: the
      // request passes uncounted rather than refused, so reads go on (a write meets its own
      // store's refusal). Counting resumes once the store can write again.
      if (!(error instanceof StoreNotWritableError)) throw error;
      ctx.set("RateLimit-Policy", policy);
      await next();
      return;
    }
    const fields = describeLimits(outcome.limits, Date.now());
    if (!outcome.allowed) throw rateLimitedError(outcome.retryAfterSeconds, { "RateLimit-Policy": policy, RateLimit: fields });
    ctx.set("RateLimit-Policy", policy);
    ctx.set("RateLimit", fields);
    await next();
  };
}

/** The RateLimit field: each policy's remaining calls (`r`) and seconds until that number next grows (`t`). */
function describeLimits(limits: readonly RateLimitState[], now: number): string {
  let text = "";
  for (const limit of limits) {
    text += `${text === "" ? "" : ", "}"${limit.scope}";r=${limit.remaining};t=${Math.max(0, Math.ceil((limit.resetAt - now) / 1000))}`;
  }
  return text;
}

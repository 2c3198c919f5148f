import type { Middleware } from "koa";
import type { OperationSpec } from "../openapi/document.js";
import type { Caller } from "../auth/caller.js";
import { requireScopes } from "../auth/scopes.js";

export interface Authenticators {
  verifyCredential: (authorization: string | undefined) => Promise<Caller>;
  checkAdminKey: (authorization: string | undefined) => void;
}

/**
 * Establishes who is calling, as the operation's security asks: the admin key, or a project API
 * key / service token holding one of the operation's scopes. The caller lands on ctx.state.caller.
 */
export function authenticate(spec: OperationSpec, authenticators: Authenticators): Middleware {
  return async function authenticate(ctx, next) {
    const authorization = ctx.get("Authorization") || undefined;
    if (spec.auth === "admin") {
      authenticators.checkAdminKey(authorization);
    } else if (spec.auth === "bearer") {
      const caller = await authenticators.verifyCredential(authorization);
      requireScopes(caller, spec.scopes, spec.credential);
      ctx.state.caller = caller;
    }
    await next();
  };
}

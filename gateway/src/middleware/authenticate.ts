import type { Middleware } from "koa";
import { AppError } from "@bayad/kit";
import type { OperationSpec } from "../openapi/document.js";
import type { Caller } from "../auth/caller.js";
import { requireScopes } from "../auth/scopes.js";

export interface Authenticators {
  verifyCredential: (authorization: string | undefined) => Promise<Caller>;
  checkAdminKey: (authorization: string | undefined) => void;
}

/**
 * Establishes who is calling, as the operation's security asks: the admin key, or a project API
 * key / service token holding one of the operation's scopes (and, for sandbox test helpers, of
 * test mode). The caller lands on ctx.state.caller.
 */
export function authenticate(spec: OperationSpec, authenticators: Authenticators): Middleware {
  return async function authenticate(ctx, next) {
    const authorization = ctx.get("Authorization") || undefined;
    if (spec.auth === "admin") {
      authenticators.checkAdminKey(authorization);
    } else if (spec.auth === "bearer") {
      const caller = await authenticators.verifyCredential(authorization);
      requireScopes(caller, spec.scopes, spec.credential);
      if (spec.testModeOnly && caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
      ctx.state.caller = caller;
    }
    await next();
  };
}

import type { Context, Middleware } from "koa";
import { AppError } from "@bayad/kit";
import type { OperationSpec } from "../openapi/document.js";
import type { Caller } from "../auth/caller.js";
import { requireScopes } from "../auth/scopes.js";
import { namesProjectToActFor, operatorCaller } from "../auth/operator.js";

/** A signed-in dashboard operator, as the session cookie establishes it. */
export interface OperatorSession {
  /** Names the session without revealing its token (a caller's subject). */
  sessionId: string;
  /** Whether the request carries the session's CSRF token. */
  csrfPresented: boolean;
}

export interface Authenticators {
  verifyCredential: (authorization: string | undefined) => Promise<Caller>;
  checkAdminKey: (authorization: string | undefined) => void;
  /**
   * The dashboard session of the request's cookie; undefined when it has none. A cookie whose
   * session has ended or expired is refused (401) rather than ignored.
   */
  dashboardSession: (ctx: Context) => Promise<OperatorSession | undefined>;
  projectExists: (projectId: string) => Promise<boolean>;
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Establishes who is calling, as the operation's security asks: the admin key, or a project API
 * key / service token holding one of the operation's scopes (and, for sandbox test helpers, of
 * test mode). The operator (the admin key, or a dashboard session standing for it) may call a
 * project's operations by naming the project and environment (auth/operator.ts).
 *
 * An Authorization header always wins over a session cookie: browsers attach cookies on their
 * own, never the header. A request authenticated by the cookie that changes anything must carry
 * the session's CSRF token, so another site cannot make an operator's browser act.
 */
export function authenticate(spec: OperationSpec, authenticators: Authenticators): Middleware {
  return async function authenticate(ctx, next) {
    const authorization = ctx.get("Authorization") || undefined;
    const session = authorization || spec.auth === "none" ? undefined : await authenticators.dashboardSession(ctx);
    if (session && !safeMethods.has(ctx.method) && !session.csrfPresented) throw new AppError("CSRF_TOKEN_INVALID");
    const operator = (): string => {
      if (session) return `dashboard:${session.sessionId.slice(0, 16)}`;
      authenticators.checkAdminKey(authorization);
      return "admin_key";
    };

    if (spec.auth === "admin") {
      operator();
    } else if (spec.auth === "bearer") {
      const caller =
        session || namesProjectToActFor(ctx)
          ? await operatorCaller(ctx, operator(), authenticators.projectExists)
          : await authenticators.verifyCredential(authorization);
      requireScopes(caller, spec.scopes, spec.credential);
      if (spec.testModeOnly && caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
      ctx.state.caller = caller;
    }
    await next();
  };
}

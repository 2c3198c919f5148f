import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError } from "@bayad/kit";
import { successEnvelope } from "../envelope.js";
import { jsonBody } from "../middleware/json-body.js";
import type { OperatorSession } from "../middleware/authenticate.js";
import type { OperationHandlers } from "../routes/operation.js";
import type { DashboardSession, DashboardSessions } from "./dashboard-sessions.js";
import type { SignInLimits } from "./sign-in-limits.js";
import { clearedSessionCookie, presentedSessionToken, sessionCookie, type SessionCookieKind } from "./session-cookie.js";

export const sessionPath = "/dashboard/api/session";

export interface SessionRouteOptions {
  sessions: DashboardSessions;
  checkAdminKey: (authorization: string | undefined) => void;
  /** The session cookie's name and Secure flag for this request (session-cookie.ts). */
  cookieKind: (ctx: Context) => SessionCookieKind;
  bodyLimitBytes: number;
  /** The request's client address, as TRUST_PROXY decides it (http/client-address.ts). */
  clientAddress: (ctx: Context) => string;
  signInLimits: SignInLimits;
}

const sessionEnded = () => new AppError("AUTHENTICATION_REQUIRED", "No dashboard session: sign in with the admin key.");

/** What the page may know of its session: the CSRF token to send, and when it ends. */
const publicSession = (session: DashboardSession) => ({
  csrfToken: session.csrfToken,
  expiresAt: session.expiresAt.toISOString(),
});

/**
 * Sign-in, the session's state, and sign-out for the dashboard:
 * POST exchanges the admin key for a session cookie (the key is checked in constant time and
 * never kept; attempts are limited per client address and wrong keys by a global budget, see
 * sign-in-limits.ts); GET answers the session's CSRF token and expiry; DELETE ends the session on
 * the server (needs the CSRF token) and clears the cookie.
 */
export function dashboardSessionRoutes(options: SessionRouteOptions) {
  const { sessions } = options;

  async function sessionOf(ctx: Context): Promise<{ token: string; session: DashboardSession }> {
    const kind = options.cookieKind(ctx);
    const token = presentedSessionToken(ctx, kind);
    const session = token ? await sessions.find(token) : null;
    if (!token || !session) {
      if (token) ctx.append("Set-Cookie", clearedSessionCookie(kind));
      throw sessionEnded();
    }
    return { token, session };
  }

  return (router: Router) => {
    router.post(sessionPath, jsonBody(options.bodyLimitBytes), async (ctx) => {
      await options.signInLimits.admit(options.clientAddress(ctx));
      const body = ctx.state.body as unknown;
      const adminKey = typeof body === "object" && body !== null ? (body as { adminKey?: unknown }).adminKey : undefined;
      if (typeof adminKey !== "string" || adminKey.length === 0 || adminKey.length > 1024) {
        throw new AppError("VALIDATION_FAILED", undefined, { details: ["adminKey: the admin key (ADMIN_API_KEY) is required"] });
      }
      try {
        options.checkAdminKey(`Bearer ${adminKey}`);
      } catch (error) {
        await options.signInLimits.failed();
        throw error;
      }
      const started = await sessions.start();
      ctx.append("Set-Cookie", sessionCookie(options.cookieKind(ctx), started.token, started.expiresAt));
      ctx.set("Cache-Control", "no-store");
      ctx.status = 201;
      ctx.body = successEnvelope(publicSession(started));
    });

    router.get(sessionPath, async (ctx) => {
      const { session } = await sessionOf(ctx);
      ctx.set("Cache-Control", "no-store");
      ctx.body = successEnvelope(publicSession(session));
    });

    router.delete(sessionPath, async (ctx) => {
      const { token, session } = await sessionOf(ctx);
      if (!sessions.csrfMatches(session, ctx.get("X-CSRF-Token") || undefined)) throw new AppError("CSRF_TOKEN_INVALID");
      await sessions.end(token);
      ctx.append("Set-Cookie", clearedSessionCookie(options.cookieKind(ctx)));
      ctx.status = 204;
    });
  };
}

/** The authenticator of operations called with the session cookie (middleware/authenticate.ts). */
export function dashboardSessionAuthenticator(sessions: DashboardSessions, cookieKind: (ctx: Context) => SessionCookieKind) {
  return async (ctx: Context): Promise<OperatorSession | undefined> => {
    const token = presentedSessionToken(ctx, cookieKind(ctx));
    if (!token) return undefined;
    const session = await sessions.find(token);
    if (!session) throw new AppError("AUTHENTICATION_REQUIRED", "The dashboard session has ended: sign in again.");
    return { sessionId: session.sessionId, csrfPresented: sessions.csrfMatches(session, ctx.get("X-CSRF-Token") || undefined) };
  };
}

/** The admin API's operation on sessions: revokeDashboardSessions ends every one, on every replica. */
export function dashboardSessionHandlers(sessions: DashboardSessions): OperationHandlers {
  return {
    async revokeDashboardSessions() {
      return { status: 200, data: { revoked: await sessions.endAll() } };
    },
  };
}

import type Router from "@koa/router";
import type { Context } from "koa";
import { AppError } from "@bayad/kit";
import { successEnvelope } from "../envelope.js";
import { jsonBody } from "../middleware/json-body.js";
import type { OperatorSession } from "../middleware/authenticate.js";
import type { DashboardSession, DashboardSessions } from "./dashboard-sessions.js";
import { clearedSessionCookie, presentedSessionToken, sessionCookie } from "./session-cookie.js";

export const sessionPath = "/dashboard/api/session";

export interface SessionRouteOptions {
  sessions: DashboardSessions;
  checkAdminKey: (authorization: string | undefined) => void;
  /** Whether cookies must be Secure for this request (https, directly or at the public URL). */
  secureCookies: (ctx: Context) => boolean;
  bodyLimitBytes: number;
  /** Counts one sign-in attempt from the request's client address; throws RATE_LIMITED over the limit. */
  countSignIn: (clientAddress: string) => Promise<void>;
}

/**
 * Sign-in attempts per client address (all of them, so a correct guess is refused as well once
 * over): plenty for people, nothing for a guesser (an admin key has at least 16 characters).
 */
export const signInLimit = { limit: 20, windowSeconds: 60 } as const;

const sessionEnded = () => new AppError("AUTHENTICATION_REQUIRED", "No dashboard session: sign in with the admin key.");

/** What the page may know of its session: the CSRF token to send, and when it ends. */
const publicSession = (session: DashboardSession) => ({
  csrfToken: session.csrfToken,
  expiresAt: session.expiresAt.toISOString(),
});

/**
 * Sign-in, the session's state, and sign-out for the dashboard:
 * POST exchanges the admin key for a session cookie (the key is checked in constant time and
 * never kept); GET answers the session's CSRF token and expiry; DELETE ends the session on the
 * server (needs the CSRF token) and clears the cookie.
 */
export function dashboardSessionRoutes(options: SessionRouteOptions) {
  const { sessions } = options;

  async function sessionOf(ctx: Context): Promise<{ token: string; session: DashboardSession }> {
    const token = presentedSessionToken(ctx);
    const session = token ? await sessions.find(token) : null;
    if (!token || !session) {
      if (token) ctx.append("Set-Cookie", clearedSessionCookie(options.secureCookies(ctx)));
      throw sessionEnded();
    }
    return { token, session };
  }

  return (router: Router) => {
    router.post(sessionPath, jsonBody(options.bodyLimitBytes), async (ctx) => {
      await options.countSignIn(ctx.ip);
      const body = ctx.state.body as unknown;
      const adminKey = typeof body === "object" && body !== null ? (body as { adminKey?: unknown }).adminKey : undefined;
      if (typeof adminKey !== "string" || adminKey.length === 0 || adminKey.length > 1024) {
        throw new AppError("VALIDATION_FAILED", undefined, { details: ["adminKey: the admin key (ADMIN_API_KEY) is required"] });
      }
      options.checkAdminKey(`Bearer ${adminKey}`);
      const started = await sessions.start();
      ctx.append("Set-Cookie", sessionCookie(started.token, started.expiresAt, options.secureCookies(ctx)));
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
      ctx.append("Set-Cookie", clearedSessionCookie(options.secureCookies(ctx)));
      ctx.status = 204;
    });
  };
}

/** The authenticator of operations called with the session cookie (middleware/authenticate.ts). */
export function dashboardSessionAuthenticator(sessions: DashboardSessions) {
  return async (ctx: Context): Promise<OperatorSession | undefined> => {
    const token = presentedSessionToken(ctx);
    if (!token) return undefined;
    const session = await sessions.find(token);
    if (!session) throw new AppError("AUTHENTICATION_REQUIRED", "The dashboard session has ended: sign in again.");
    return { sessionId: session.sessionId, csrfPresented: sessions.csrfMatches(session, ctx.get("X-CSRF-Token") || undefined) };
  };
}

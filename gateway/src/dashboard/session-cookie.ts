import type { Context } from "koa";

/** The cookie holding a dashboard session's token. */
export const sessionCookieName = "bayad_dashboard_session";

/**
 * The Set-Cookie value for a session: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Path=/ (the dashboard calls /api and /admin), an expiry, and Secure
 * whenever the dashboard is served over https (directly, or behind a proxy at an https PUBLIC_URL).
 * Written by hand rather than through ctx.cookies, which refuses a Secure cookie on a connection
 * that is plain HTTP only because TLS ends at the proxy.
 */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${sessionCookieName}=${token}`,
    "Path=/",
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that makes the browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", new Date(0), secure);
}

/** The session token the request presents, if any. */
export function presentedSessionToken(ctx: Pick<Context, "cookies">): string | undefined {
  return ctx.cookies.get(sessionCookieName) || undefined;
}

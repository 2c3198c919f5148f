import ipaddr from "ipaddr.js";
import type { Context } from "koa";

/** The name and Secure flag of the session cookie, chosen per request (sessionCookieKind). */
export interface SessionCookieKind {
  name: string;
  secure: boolean;
}

/**
 * The session cookie everywhere but plain-http loopback. The `__Host-` prefix makes browsers
 * accept it only when Secure, with Path=/ and no Domain, so neither a sibling subdomain nor a
 * plain-http page on the network path can plant or shadow a session cookie.
 */
export const hostSessionCookie: SessionCookieKind = { name: "__Host-bayad_dashboard_session", secure: true };

/**
 * The session cookie of a gateway reached over plain http on this machine (`npm start` at
 * 127.0.0.1): browsers refuse Secure cookies, and so the `__Host-` prefix, from plain-http pages,
 * and nothing between the browser and a loopback gateway can read or plant one.
 */
export const loopbackSessionCookie: SessionCookieKind = { name: "bayad_dashboard_session", secure: false };

/**
 * Which cookie a request gets: the loopback one only for a request over plain http to a loopback
 * host (localhost, 127.0.0.0/8, ::1) of a gateway whose public URL is not https; the `__Host-`
 * one otherwise, including plain http from anywhere else (TLS is expected to end at a proxy in
 * front; a browser talking plain http to another host gets no session).
 */
export function sessionCookieKind(request: Pick<Context, "secure" | "hostname">, publicUrl: string): SessionCookieKind {
  const plainHttp = !request.secure && !publicUrl.startsWith("https:");
  return plainHttp && isLoopbackHost(request.hostname) ? loopbackSessionCookie : hostSessionCookie;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

/**
 * The Set-Cookie value for a session: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Path=/ (the dashboard calls /api and /admin), an expiry, and Secure as
 * the kind says. Written by hand rather than through ctx.cookies, which refuses a Secure cookie on
 * a connection that is plain HTTP only because TLS ends at the proxy.
 */
export function sessionCookie(kind: SessionCookieKind, token: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return [
    `${kind.name}=${token}`,
    "Path=/",
    `Max-Age=${maxAge}`,
    `Expires=${expiresAt.toUTCString()}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(kind.secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that makes the browser drop the session cookie. */
export function clearedSessionCookie(kind: SessionCookieKind): string {
  return sessionCookie(kind, "", new Date(0));
}

/** The session token the request presents in the cookie of its kind, if any. */
export function presentedSessionToken(ctx: Pick<Context, "cookies">, kind: SessionCookieKind): string | undefined {
  return ctx.cookies.get(kind.name) || undefined;
}

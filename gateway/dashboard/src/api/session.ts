import { request, setCsrfToken } from "./client";

/** A dashboard session as the gateway reports it; the cookie itself is never readable here. */
export interface Session {
  csrfToken: string;
  expiresAt: string;
}

const sessionPath = "/dashboard/api/session";

/** Exchanges the admin key for a session cookie. The key is sent once and not kept anywhere. */
export async function signIn(adminKey: string): Promise<Session> {
  const session = await request<Session>(sessionPath, { method: "POST", body: { adminKey } });
  setCsrfToken(session.csrfToken);
  return session;
}

/** The current session, or null when the browser has none (or it expired). */
export async function currentSession(): Promise<Session | null> {
  try {
    const session = await request<Session>(sessionPath);
    setCsrfToken(session.csrfToken);
    return session;
  } catch (error) {
    if (error instanceof Error && "status" in error && error.status === 401) return null;
    throw error;
  }
}

/** Ends the session on the server and forgets the CSRF token. */
export async function signOut(): Promise<void> {
  try {
    await request<void>(sessionPath, { method: "DELETE" });
  } finally {
    setCsrfToken(undefined);
  }
}

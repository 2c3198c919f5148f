import { randomBytes } from "node:crypto";
import { constantTimeEquals, keyedDigest } from "@bayad/kit";
import type { Collection, CollectionDef, Store } from "@bayad/store";

/**
 * Dashboard sessions: what an operator's browser holds instead of the admin key. The browser
 * gets a random token in an HttpOnly cookie; the store keeps only the token's keyed digest, so a
 * copy of the store signs no one in. Each session has a CSRF token derived from its token (no
 * second secret to store), which the page reads from GET /dashboard/api/session and sends on
 * every change. Sessions live in the gateway's store, so every replica knows them and signing
 * out ends the session everywhere.
 */

interface DashboardSessionDoc {
  /** keyedDigest of the cookie's token. */
  _id: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Expired sessions are removed by the store (TTL); until then `find` refuses them itself. */
export const dashboardSessionsCollection: CollectionDef = {
  name: "dashboard_sessions",
  indexes: [{ name: "expires_at_ttl", keys: { expiresAt: 1 }, expireAfterSeconds: 0 }],
};

export interface DashboardSession {
  /** Digest of the token: names the session in logs and as a caller's subject, revealing nothing. */
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface DashboardSessions {
  /** Starts a session; the token is the cookie's value and is not kept. */
  start(): Promise<DashboardSession & { token: string }>;
  /** The live session of a cookie's token; null for an unknown, ended or expired one. */
  find(token: string): Promise<DashboardSession | null>;
  end(token: string): Promise<void>;
  /** Whether `presented` is the session's CSRF token, compared in constant time. */
  csrfMatches(session: DashboardSession, presented: string | undefined): boolean;
}

export interface DashboardSessionOptions {
  secret: string;
  ttlMs: number;
  now?: () => Date;
}

/** Tokens are 256 random bits, base64url: guessing one is hopeless; the shape check is cheap. */
const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export function createDashboardSessions(store: Store, options: DashboardSessionOptions): DashboardSessions {
  const sessions: Collection<DashboardSessionDoc> = store.collection<DashboardSessionDoc>(dashboardSessionsCollection);
  const now = options.now ?? (() => new Date());
  const digest = (token: string) => keyedDigest(options.secret, "dashboard-session", token);
  const csrfOf = (token: string) => keyedDigest(options.secret, "dashboard-csrf", token);

  return {
    async start() {
      const token = randomBytes(32).toString("base64url");
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + options.ttlMs);
      await sessions.insertOne({ _id: digest(token), createdAt, expiresAt });
      return { token, sessionId: digest(token), csrfToken: csrfOf(token), expiresAt };
    },

    async find(token) {
      if (!tokenShape.test(token)) return null;
      const doc = await sessions.findOne({ _id: digest(token) });
      if (!doc || doc.expiresAt.getTime() <= now().getTime()) return null;
      return { sessionId: doc._id, csrfToken: csrfOf(token), expiresAt: doc.expiresAt };
    },

    async end(token) {
      if (tokenShape.test(token)) await sessions.deleteOne({ _id: digest(token) });
    },

    csrfMatches(session, presented) {
      return presented !== undefined && constantTimeEquals(session.csrfToken, presented);
    },
  };
}

import { randomBytes } from "node:crypto";
import { constantTimeEquals, keyedDigest } from "@bayad/kit";
import type { Collection, CollectionDef, Store } from "@bayad/store";

/**
 * Dashboard sessions: what an operator's browser holds instead of the admin key. The browser
 * gets a random token in an HttpOnly cookie; the store keeps only the token's keyed digest, so a
 * copy of the store signs no one in. Each session has a CSRF token derived from its token (no
 * second secret to store), which the page reads from GET /dashboard/api/session and sends on
 * every change. Sessions live in the gateway's store, so every replica knows them and signing
 * out (or ending them all) ends a session everywhere.
 *
 * A session stands for the admin key it was signed in with: it keeps a keyed digest of that key
 * and dies as soon as the gateway runs with another one, so replacing a leaked ADMIN_API_KEY also
 * ends every session it opened. A session ends after `idleMs` without use as well as `ttlMs`
 * after sign-in. Use is written to the store at most once a `touchIntervalMs`, not on every
 * request, so a session may end up to that much sooner than its idle time says.
 */

interface DashboardSessionDoc {
  /** keyedDigest of the cookie's token. */
  _id: string;
  /** keyedDigest of the admin key the session was signed in with. */
  adminKeyDigest: string;
  createdAt: Date;
  /** The last use recorded (at most `touchIntervalMs` behind the real one). */
  lastUsedAt: Date;
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
  /** Ends every session, on every replica; answers how many there were. */
  endAll(): Promise<number>;
  /** Whether `presented` is the session's CSRF token, compared in constant time. */
  csrfMatches(session: DashboardSession, presented: string | undefined): boolean;
}

export interface DashboardSessionOptions {
  secret: string;
  /** The admin key sessions stand for now: a session signed in with another one is refused. */
  adminKey: string;
  /** How long a session lasts after sign-in, used or not. */
  ttlMs: number;
  /** How long a session lasts without use. */
  idleMs: number;
  now?: () => Date;
}

/** How often a session's use is written to the store, at most. */
export const touchIntervalMs = 60_000;

/** Tokens are 256 random bits, base64url: guessing one is hopeless; the shape check is cheap. */
const tokenShape = /^[A-Za-z0-9_-]{43}$/;

export function createDashboardSessions(store: Store, options: DashboardSessionOptions): DashboardSessions {
  const sessions: Collection<DashboardSessionDoc> = store.collection<DashboardSessionDoc>(dashboardSessionsCollection);
  const now = options.now ?? (() => new Date());
  const digest = (token: string) => keyedDigest(options.secret, "dashboard-session", token);
  const csrfOf = (token: string) => keyedDigest(options.secret, "dashboard-csrf", token);
  const adminKeyDigest = keyedDigest(options.secret, "dashboard-session-admin-key", options.adminKey);

  return {
    async start() {
      const token = randomBytes(32).toString("base64url");
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + options.ttlMs);
      await sessions.insertOne({ _id: digest(token), adminKeyDigest, createdAt, lastUsedAt: createdAt, expiresAt });
      return { token, sessionId: digest(token), csrfToken: csrfOf(token), expiresAt };
    },

    async find(token) {
      if (!tokenShape.test(token)) return null;
      const doc = await sessions.findOne({ _id: digest(token) });
      const at = now().getTime();
      if (!doc || doc.expiresAt.getTime() <= at) return null;
      // A session from before sessions kept their key has no digest: it is refused like another key's.
      const sameKey = typeof doc.adminKeyDigest === "string" && constantTimeEquals(doc.adminKeyDigest, adminKeyDigest);
      if (!sameKey || at - doc.lastUsedAt.getTime() >= options.idleMs) {
        await sessions.deleteOne({ _id: doc._id });
        return null;
      }
      if (at - doc.lastUsedAt.getTime() >= touchIntervalMs) await sessions.updateOne({ _id: doc._id }, { $set: { lastUsedAt: new Date(at) } });
      return { sessionId: doc._id, csrfToken: csrfOf(token), expiresAt: doc.expiresAt };
    },

    async end(token) {
      if (tokenShape.test(token)) await sessions.deleteOne({ _id: digest(token) });
    },

    async endAll() {
      return sessions.deleteMany({});
    },

    csrfMatches(session, presented) {
      return presented !== undefined && constantTimeEquals(session.csrfToken, presented);
    },
  };
}

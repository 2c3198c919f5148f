import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";

/** PayMongo's limit per key [O docs/rate-limiting-errors]: 100 requests a second (6000 a minute). */
export const PAYMONGO_RATE_LIMIT_PER_SECOND = 100;

/** PayMongo's 429 body: plain text, not its JSON error envelope [O docs/rate-limiting-errors]. */
export const TOO_MANY_REQUESTS_TEXT = "Too many requests, please try again later.";

/**
 * Counts each key's API requests per calendar second and says when one goes over the limit.
 * PayMongo lifts its block "within the next minute once the rate is normal"; how soon is not
 * published (UNCONF), so the simulator lifts it at the next second, which keeps tests quick.
 * Requests without credentials are not counted (they are answered 401 anyway).
 */
export class RateLimit {
  private readonly seconds = new Map<string, { second: number; count: number }>();

  constructor(private readonly perSecond = PAYMONGO_RATE_LIMIT_PER_SECOND) {}

  /** Counts a request with this Authorization header; true when it is over the limit. */
  exceeded(authorization: string | undefined): boolean {
    if (!authorization) return false;
    const id = createHash("sha256").update(authorization).digest("hex");
    const second = Math.floor(Date.now() / 1000);
    const current = this.seconds.get(id);
    if (!current || current.second !== second) {
      this.seconds.set(id, { second, count: 1 });
      return false;
    }
    current.count += 1;
    return current.count > this.perSecond;
  }
}

/** Answers 429 as PayMongo does: a plain-text body and no rate headers. */
export function sendTooManyRequests(res: ServerResponse): void {
  res.writeHead(429, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(TOO_MANY_REQUESTS_TEXT) });
  res.end(TOO_MANY_REQUESTS_TEXT);
}

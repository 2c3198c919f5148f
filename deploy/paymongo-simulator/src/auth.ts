import { createHash } from "node:crypto";
import { PaymongoSimulatorError, unauthorized } from "./api-error.js";
import { randomBase62 } from "./ids.js";
import type { Account } from "./state.js";

const SECRET_KEY = /^sk_(test|live)_[0-9A-Za-z]{16,}$/;

const hashOf = (key: string) => createHash("sha256").update(key).digest("hex").slice(0, 32);

/**
 * The secret keys the simulator knows of beyond "every key is its own account": keys rolled in
 * PayMongo's dashboard (the old key answers 401, a new one reaches the same account). Kept as
 * hashes only.
 */
export class KeyRing {
  private readonly revoked = new Set<string>();
  /** A rolled key's successor → the account it reaches. */
  private readonly owners = new Map<string, string>();

  /**
   * Basic auth with the secret key as user name and an empty password ([O]). Any well-formed key
   * is an account of its own, in the key's mode, unless it was rolled (revoked: 401) or is the
   * successor of a rolled key (its account).
   */
  authenticate(header: string | undefined): Account {
    if (!header) throw unauthorized("No API key was provided. Use HTTP Basic auth with your secret key as the user name.");
    const match = /^Basic\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized("The Authorization header must use HTTP Basic auth.");
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const key = decoded.includes(":") ? decoded.slice(0, decoded.indexOf(":")) : decoded;
    const valid = SECRET_KEY.exec(key);
    if (!valid) throw unauthorized("The API key is not a valid secret key.");
    const hash = hashOf(key);
    // PayMongo's 401 for a revoked key is documented, its code is not (UNCONF): the same as any refused key.
    if (this.revoked.has(hash)) throw unauthorized("The API key has been revoked.");
    return { owner: this.owners.get(hash) ?? hash, livemode: valid[1] === "live" };
  }

  /**
   * Rolls a key as PayMongo's dashboard does: from now on the old key answers 401, and the new key
   * it answers reaches the same account (its objects, its webhooks and their secrets).
   */
  roll(secretKey: string): string {
    const valid = SECRET_KEY.exec(secretKey);
    if (!valid) {
      throw new PaymongoSimulatorError(400, [
        { code: "parameter_invalid", detail: "secretKey must be a secret key (sk_test_… or sk_live_…).", source: { pointer: "secretKey", attribute: "secretKey" } },
      ]);
    }
    const hash = hashOf(secretKey);
    if (this.revoked.has(hash)) throw unauthorized("The API key has been revoked.");
    const owner = this.owners.get(hash) ?? hash;
    const next = `sk_${valid[1]}_${randomBase62(24)}`;
    this.revoked.add(hash);
    this.owners.set(hashOf(next), owner);
    return next;
  }

  /** The account a key reaches, whatever its state (for the controls). */
  ownerOf(secretKey: string): string {
    const hash = hashOf(secretKey);
    return this.owners.get(hash) ?? hash;
  }
}

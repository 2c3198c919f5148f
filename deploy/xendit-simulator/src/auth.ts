import { createHash } from "node:crypto";
import { unauthorized } from "./api-error.js";

/** Whose objects a request sees: each secret key is an account of its own, in the key's mode. */
export interface Account {
  /** A hash of the key, never the key itself, so nothing the simulator keeps or logs is a secret. */
  owner: string;
  /** Xendit's `business_id`: 24 hex characters derived from the key. */
  businessId: string;
  mode: "test" | "live";
}

const SECRET_KEY = /^xnd_(development|production)_[0-9A-Za-z]+$/;

/**
 * HTTP Basic with the secret key as user name and an empty password [O apidocs/quick-setup]:
 * `xnd_development_…` is a test key [O], `xnd_production_…` a live one [3P]. A public key
 * (`xnd_public_…`) is refused, as it is only for card tokenization [O].
 */
export function authenticate(header: string | undefined): Account {
  if (!header) throw unauthorized("No API key was provided. Use HTTP Basic auth with your secret key as the user name.");
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must use HTTP Basic auth.");
  const decoded = Buffer.from(match[1] ?? "", "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0 || decoded.slice(colon + 1) !== "") throw unauthorized("Use the secret key as the user name and an empty password.");
  return accountOf(decoded.slice(0, colon));
}

/** The account a secret key reaches; the controls use it to address an account by its key. */
export function accountOf(secretKey: string): Account {
  const valid = SECRET_KEY.exec(secretKey);
  if (!valid) throw unauthorized("The API key is not a valid Xendit secret key.");
  const hash = createHash("sha256").update(secretKey).digest("hex");
  return { owner: hash.slice(0, 32), businessId: hash.slice(32, 56), mode: valid[1] === "production" ? "live" : "test" };
}

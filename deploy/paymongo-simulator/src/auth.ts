import { createHash } from "node:crypto";
import { unauthorized } from "./api-error.js";
import type { Account } from "./state.js";

const SECRET_KEY = /^sk_(test|live)_[0-9A-Za-z]{16,}$/;

/**
 * Basic auth with the secret key as user name and an empty password ([O]). Any well-formed key is
 * an account of its own, in the key's mode; it is kept only as a hash.
 */
export function authenticate(header: string | undefined): Account {
  if (!header) throw unauthorized("No API key was provided. Use HTTP Basic auth with your secret key as the user name.");
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) throw unauthorized("The Authorization header must use HTTP Basic auth.");
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const key = decoded.includes(":") ? decoded.slice(0, decoded.indexOf(":")) : decoded;
  const valid = SECRET_KEY.exec(key);
  if (!valid) throw unauthorized("The API key is not a valid secret key.");
  return { owner: createHash("sha256").update(key).digest("hex").slice(0, 32), livemode: valid[1] === "live" };
}

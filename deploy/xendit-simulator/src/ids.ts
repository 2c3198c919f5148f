import { randomBytes, randomUUID } from "node:crypto";

/** An id shaped like Xendit's v3 ones: a resource prefix and a UUID (`pr-…`, `py-…`, `rfd-…`, `cap-…`) [O prefixes]. */
export function newId(prefix: "pr" | "py" | "rfd" | "cap"): string {
  return `${prefix}-${randomUUID()}`;
}

/** A Payment Session id: `ps-` and 24 hex characters, 27 in all as the facts say [O]. */
export function newSessionId(): string {
  return `ps-${randomBytes(12).toString("hex")}`;
}

/** An invoice id: 24 hex characters [O xendit.md §1]. */
export function newInvoiceId(): string {
  return randomBytes(12).toString("hex");
}

export function isoNow(): string {
  return new Date().toISOString();
}

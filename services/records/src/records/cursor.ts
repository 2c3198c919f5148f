import { createHash, createHmac } from "node:crypto";
import { AppError, constantTimeEquals } from "@bayad/kit";
import type { FeedPosition } from "./payment-records-repository.js";

/** What a cursor is bound to: the listing it continues. The page size may change between pages. */
export interface CursorScope {
  projectId: string;
  environment: string;
  type?: string;
  status?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

export interface CursorCodec {
  /** An opaque continuation token for the listing `scope`, positioned after `position`. */
  issue(position: FeedPosition, scope: CursorScope): string;
  /** The position a token carries; VALIDATION_FAILED (naming `cursor`) unless this codec issued it for `scope`. */
  read(cursor: string, scope: CursorScope): FeedPosition;
}

/** The REST contract's bound on `cursor`; ours stay far below it. */
const MAX_CURSOR_LENGTH = 1024;
const FORMAT_VERSION = 1;

interface CursorPayload {
  v: number;
  /** createdAt of the last record, epoch milliseconds. */
  t: number;
  /** id of the last record. */
  i: string;
  /** Fingerprint of the scope the cursor was issued for. */
  f: string;
}

function invalid(problem: string): AppError {
  return new AppError("VALIDATION_FAILED", "The cursor is not valid for this listing.", { details: [`cursor: ${problem}`] });
}

/**
 * A short digest of the listing a cursor belongs to. Continuing one listing's position inside
 * another (other filters, another project) would silently skip or repeat records, so it is refused.
 */
function fingerprint(scope: CursorScope): string {
  const canonical = JSON.stringify([
    scope.projectId,
    scope.environment,
    scope.type ?? null,
    scope.status ?? null,
    scope.createdAfter?.getTime() ?? null,
    scope.createdBefore?.getTime() ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 22);
}

function isPayload(value: unknown): value is CursorPayload {
  if (typeof value !== "object" || value === null) return false;
  const { v, t, i, f } = value as Record<string, unknown>;
  return v === FORMAT_VERSION && Number.isSafeInteger(t) && typeof i === "string" && i !== "" && typeof f === "string";
}

/**
 * Cursors are base64url(JSON payload) "." base64url(HMAC-SHA256(secret, payload text)): opaque to
 * clients, and a changed one does not verify. Every replica must share the secret, or a cursor
 * issued by one is refused by another.
 */
export function createCursorCodec(secret: string): CursorCodec {
  const sign = (body: string) => createHmac("sha256", secret).update(body).digest("base64url");

  return {
    issue(position, scope) {
      const payload: CursorPayload = { v: FORMAT_VERSION, t: position.createdAt.getTime(), i: position.id, f: fingerprint(scope) };
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
      return `${body}.${sign(body)}`;
    },

    read(cursor, scope) {
      const parts = cursor.split(".");
      const [body, mac] = parts;
      if (cursor.length > MAX_CURSOR_LENGTH || parts.length !== 2 || !body || !mac) {
        throw invalid("is not a cursor issued by this listing");
      }
      // Compare the text itself (constant time), not decoded bytes: base64 decoding is lenient
      // and would accept variants of a signature.
      if (!constantTimeEquals(sign(body), mac)) {
        throw invalid("has been altered or was not issued by this service");
      }
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        throw invalid("cannot be read");
      }
      if (!isPayload(payload)) throw invalid("cannot be read");
      if (payload.f !== fingerprint(scope)) throw invalid("was issued for other filters (type, status, createdAfter, createdBefore)");
      return { createdAt: new Date(payload.t), id: payload.i };
    },
  };
}

import { hash } from "node:crypto";
import { AppError } from "./errors/app-error.js";
import { constantTimeEquals } from "./constant-time.js";
import { keyedDigest } from "./secrets.js";

/** Where a page ended: the last item's createdAt and id (listings are newest first, then by id). */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/**
 * What a cursor continues: the caller and the listing's filters (and, where a service has several
 * listings, the listing's name), in a fixed order. Continuing one listing's position inside
 * another (other filters, another project) would silently skip or repeat items, so it is refused.
 * The page size is not part of it: it may change between pages.
 */
export type CursorScope = ReadonlyArray<string | number | null>;

export interface CursorCodec {
  /** An opaque continuation token for the listing `scope`, positioned after `position`. */
  issue(position: PagePosition, scope: CursorScope): string;
  /** The position a cursor carries; VALIDATION_FAILED naming `cursor` unless this codec issued it for `scope`. */
  read(cursor: string, scope: CursorScope): PagePosition;
}

/** The REST contract's bound on `cursor`; ours stay far below it. */
const MAX_CURSOR_LENGTH = 1024;
const FORMAT_VERSION = 1;

interface CursorPayload {
  v: number;
  /** createdAt of the last item, epoch milliseconds. */
  t: number;
  /** id of the last item. */
  i: string;
  /** Fingerprint of the scope the cursor was issued for. */
  f: string;
}

function invalid(problem: string): AppError {
  return new AppError("VALIDATION_FAILED", "The cursor is not valid for this listing.", { details: [`cursor: ${problem}`] });
}

/**
 * A short digest of the listing a cursor belongs to: the cursor carries it, not the filters
 * themselves. One-shot `hash`: a Hash object per page costs more than the digest.
 */
function fingerprint(scope: CursorScope): string {
  return hash("sha256", JSON.stringify(scope), "base64url").slice(0, 22);
}

function isPayload(value: unknown): value is CursorPayload {
  if (typeof value !== "object" || value === null) return false;
  const { v, t, i, f } = value as Record<string, unknown>;
  return v === FORMAT_VERSION && Number.isSafeInteger(t) && typeof i === "string" && i !== "" && typeof f === "string";
}

/**
 * Keyset listing cursors: base64url(JSON payload) "." keyedDigest(secret, purpose, payload text),
 * opaque to clients and refused when changed. `purpose` keeps one service's cursors from being read
 * by another sharing the secret. Every replica must share the secret, or a cursor issued by one is
 * refused by the next.
 */
export function createCursorCodec(secret: string, purpose: string): CursorCodec {
  const sign = (body: string) => keyedDigest(secret, purpose, body);

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
      if (payload.f !== fingerprint(scope)) throw invalid("was issued for other filters or another listing");
      return { createdAt: new Date(payload.t), id: payload.i };
    },
  };
}

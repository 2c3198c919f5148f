import { createHash } from "node:crypto";
import { AppError, constantTimeEquals, keyedDigest } from "@bayad/kit";

/** Where a page ended: the last item's createdAt and id (listings are newest first, then by id). */
export interface PagePosition {
  createdAt: Date;
  id: string;
}

/**
 * What a cursor continues: the listing's name, the caller and its filters, in a fixed order.
 * Continuing one listing's position inside another would skip or repeat items, so it is refused.
 */
export type CursorScope = ReadonlyArray<string | number | null>;

export interface CursorCodec {
  issue(position: PagePosition, scope: CursorScope): string;
  /** The position a cursor carries; VALIDATION_FAILED naming `cursor` unless issued here for `scope`. */
  read(cursor: string, scope: CursorScope): PagePosition;
}

/** The REST contract's bound on `cursor`; ours stay far below it. */
const MAX_CURSOR_LENGTH = 1024;
const FORMAT_VERSION = 1;
const PURPOSE = "webhooks-cursor";

interface CursorPayload {
  v: number;
  /** createdAt of the last item, epoch milliseconds. */
  t: number;
  /** id of the last item. */
  i: string;
  /** Fingerprint of the scope. */
  f: string;
}

function invalid(problem: string): AppError {
  return new AppError("VALIDATION_FAILED", "The cursor is not valid for this listing.", { details: [`cursor: ${problem}`] });
}

function fingerprint(scope: CursorScope): string {
  return createHash("sha256").update(JSON.stringify(scope)).digest("base64url").slice(0, 22);
}

function isPayload(value: unknown): value is CursorPayload {
  if (typeof value !== "object" || value === null) return false;
  const { v, t, i, f } = value as Record<string, unknown>;
  return v === FORMAT_VERSION && Number.isSafeInteger(t) && typeof i === "string" && i !== "" && typeof f === "string";
}

/**
 * Keyset cursors as the records service issues them: base64url(JSON payload) "." MAC, opaque to
 * clients and refused when changed. The MAC is keyed by SECRETS_KEY (for this purpose alone), which
 * every replica shares, so a cursor issued by one is read by the next.
 */
export function createCursorCodec(secretsKey: string): CursorCodec {
  const sign = (body: string) => keyedDigest(secretsKey, PURPOSE, body);
  return {
    issue(position, scope) {
      const payload: CursorPayload = { v: FORMAT_VERSION, t: position.createdAt.getTime(), i: position.id, f: fingerprint(scope) };
      const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
      return `${body}.${sign(body)}`;
    },

    read(cursor, scope) {
      const parts = cursor.split(".");
      const [body, mac] = parts;
      if (cursor.length > MAX_CURSOR_LENGTH || parts.length !== 2 || !body || !mac) throw invalid("is not a cursor issued by this listing");
      if (!constantTimeEquals(sign(body), mac)) throw invalid("has been altered or was not issued by this service");
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      } catch {
        throw invalid("cannot be read");
      }
      if (!isPayload(payload)) throw invalid("cannot be read");
      if (payload.f !== fingerprint(scope)) throw invalid("was issued for another listing or other filters");
      return { createdAt: new Date(payload.t), id: payload.i };
    },
  };
}

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "./errors/app-error.js";
import { createCursorCodec, type CursorScope } from "./listing-cursor.js";
import { keyedDigest } from "./secrets.js";

const secret = "s".repeat(43);
const purpose = "records-cursor";
const codec = createCursorCodec(secret, purpose);
/** The records feed's shape: caller, then filters in a fixed order, null when not given. */
const scope: CursorScope = ["prj_1", "test", "refund", null, Date.parse("2026-01-01T00:00:00Z"), null];
const position = { createdAt: new Date("2026-02-03T04:05:06.789Z"), id: "ref_abc" };

/** The AppError `read` throws, or a failure when it does not throw one. */
function refusal(cursor: string, readScope: CursorScope = scope, reader = codec): AppError {
  try {
    reader.read(cursor, readScope);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the cursor was accepted");
}

function expectRefused(cursor: string, readScope?: CursorScope, reader = codec): string {
  const error = refusal(cursor, readScope, reader);
  expect(error.code).toBe("VALIDATION_FAILED");
  expect(error.details).toHaveLength(1);
  expect(error.details?.[0]).toMatch(/^cursor: /);
  return error.details?.[0] ?? "";
}

/** `scope` with the item at `index` replaced. */
function changed(index: number, value: string | number | null): CursorScope {
  return scope.map((item, at) => (at === index ? value : item));
}

describe("listing cursors", () => {
  it("read the cursors issued before (scope fingerprint: SHA-256 of the scope's JSON, base64url, 22 characters)", () => {
    const fingerprint = createHash("sha256").update(JSON.stringify(scope)).digest("base64url").slice(0, 22);
    const body = Buffer.from(JSON.stringify({ v: 1, t: position.createdAt.getTime(), i: position.id, f: fingerprint })).toString("base64url");
    const earlier = `${body}.${keyedDigest(secret, purpose, body)}`;

    expect(codec.read(earlier, scope)).toEqual(position);
    expect(codec.issue(position, scope)).toBe(earlier);
  });

  it("carry the position back for the same listing, whatever the page size", () => {
    const cursor = codec.issue(position, scope);
    expect(cursor.length).toBeLessThanOrEqual(1024);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.read(cursor, [...scope])).toEqual(position);
    expect(createCursorCodec(secret, purpose).read(cursor, scope)).toEqual(position);
  });

  it("are opaque: neither the id nor the filters appear in the clear", () => {
    const cursor = codec.issue(position, scope);
    expect(cursor).not.toContain("ref_abc");
    expect(cursor).not.toContain("refund");
  });

  it("are refused when any character was changed", () => {
    const cursor = codec.issue(position, scope);
    for (const index of [0, 5, cursor.indexOf(".") - 1, cursor.indexOf(".") + 1, cursor.length - 1]) {
      const original = cursor[index];
      const altered = `${cursor.slice(0, index)}${original === "A" ? "B" : "A"}${cursor.slice(index + 1)}`;
      expect(expectRefused(altered)).toMatch(/altered/);
    }
  });

  it("are refused when another secret signed them (a replica configured differently)", () => {
    const other = createCursorCodec("t".repeat(43), purpose).issue(position, scope);
    expect(expectRefused(other)).toMatch(/altered|not issued/);
  });

  it("are refused by a codec for another purpose sharing the secret (another service's cursors)", () => {
    const cursor = createCursorCodec(secret, "webhooks-cursor").issue(position, scope);
    expect(expectRefused(cursor)).toMatch(/not issued/);
  });

  it("are refused when they are not cursors at all", () => {
    for (const garbage of ["x", "abc.def", "a.b.c", ".", "no-dot-at-all", `${"a".repeat(1100)}.b`, "🙂.🙂"]) expectRefused(garbage);
  });

  it("are refused when signed but unreadable", () => {
    for (const text of ["not json", JSON.stringify({ v: 2, t: 1, i: "x", f: "y" }), JSON.stringify({ v: 1, t: 1.5, i: "x", f: "y" })]) {
      const body = Buffer.from(text).toString("base64url");
      expect(expectRefused(`${body}.${keyedDigest(secret, purpose, body)}`)).toMatch(/cannot be read/);
    }
  });

  it("are refused for another listing: other filters or another caller", () => {
    const cursor = codec.issue(position, scope);
    const others: CursorScope[] = [
      changed(2, "checkout"),
      changed(2, null),
      changed(3, "succeeded"),
      changed(4, Date.parse("2026-01-01T00:00:00.001Z")),
      changed(5, Date.parse("2027-01-01T00:00:00Z")),
      changed(0, "prj_2"),
      changed(1, "live"),
      ["endpoints", ...scope],
      scope.slice(0, -1),
    ];
    for (const other of others) expect(expectRefused(cursor, other)).toMatch(/other filters/);
  });
});

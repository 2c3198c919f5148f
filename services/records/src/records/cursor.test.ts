import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { createCursorCodec, type CursorScope } from "./cursor.js";

const secret = "s".repeat(43);
const codec = createCursorCodec(secret);
const scope: CursorScope = { projectId: "prj_1", environment: "test", type: "refund", createdAfter: new Date("2026-01-01T00:00:00Z") };
const position = { createdAt: new Date("2026-02-03T04:05:06.789Z"), id: "ref_abc" };

/** The AppError `read` throws, or a failure when it does not throw one. */
function refusal(cursor: string, readScope: CursorScope = scope): AppError {
  try {
    codec.read(cursor, readScope);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the cursor was accepted");
}

function expectRefused(cursor: string, readScope?: CursorScope): string {
  const error = refusal(cursor, readScope);
  expect(error.code).toBe("VALIDATION_FAILED");
  expect(error.details).toHaveLength(1);
  expect(error.details?.[0]).toMatch(/^cursor: /);
  return error.details?.[0] ?? "";
}

describe("cursors", () => {
  it("carry the position back for the same listing, whatever the page size", () => {
    const cursor = codec.issue(position, scope);
    expect(cursor.length).toBeLessThanOrEqual(1024);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(codec.read(cursor, { ...scope })).toEqual(position);
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
    const other = createCursorCodec("t".repeat(43)).issue(position, scope);
    expectRefused(other);
  });

  it("are refused when they are not cursors at all", () => {
    for (const garbage of ["x", "abc.def", "a.b.c", ".", "no-dot-at-all", `${"a".repeat(1100)}.b`, "🙂.🙂"]) expectRefused(garbage);
  });

  it("are refused when signed but unreadable", () => {
    const body = Buffer.from("not json").toString("base64url");
    const mac = createHmac("sha256", secret).update(body).digest("base64url");
    expect(expectRefused(`${body}.${mac}`)).toMatch(/cannot be read/);
  });

  it("are refused for another listing: other filters or another caller", () => {
    const cursor = codec.issue(position, scope);
    const others: CursorScope[] = [
      { ...scope, type: "checkout" },
      { ...scope, type: undefined },
      { ...scope, status: "succeeded" },
      { ...scope, createdAfter: new Date("2026-01-01T00:00:00.001Z") },
      { ...scope, createdBefore: new Date("2027-01-01T00:00:00Z") },
      { ...scope, projectId: "prj_2" },
      { ...scope, environment: "live" },
    ];
    for (const other of others) expect(expectRefused(cursor, other)).toMatch(/other filters/);
  });
});

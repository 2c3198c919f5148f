import { describe, expect, it } from "vitest";
import { DuplicateKeyError, isDuplicateKeyError } from "./port.js";

describe("DuplicateKeyError", () => {
  it("names the index it broke and is recognised by isDuplicateKeyError", () => {
    const error = new DuplicateKeyError("checkouts_reference");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DuplicateKeyError");
    expect(error.message).toBe("duplicate key for index checkouts_reference");
    expect(isDuplicateKeyError(error)).toBe(true);
    expect(isDuplicateKeyError(error, "checkouts_reference")).toBe(true);
    expect(isDuplicateKeyError(error, "_id_")).toBe(false);
  });

  it("keeps the driver's error as its cause", () => {
    const cause = new Error("E11000 duplicate key error");
    expect(new DuplicateKeyError("_id_", { cause }).cause).toBe(cause);
  });

  it("leaves Error.stackTraceLimit as it found it, so other errors keep their stacks", () => {
    const before = Error.stackTraceLimit;
    new DuplicateKeyError("_id_");
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error("other").stack).toMatch(/port\.test/);
  });
});

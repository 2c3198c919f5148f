import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { createAdminKeyCheck } from "./admin-key.js";

const adminKey = "adm_4f9c2b7e1d8a6c3f5e0b9a7d2c4e6f81";

function appErrorOf(work: () => void): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("createAdminKeyCheck", () => {
  const check = createAdminKeyCheck(adminKey);

  it("accepts the admin key as a Bearer credential", () => {
    expect(() => check(`Bearer ${adminKey}`)).not.toThrow();
  });

  it("accepts the scheme in any case", () => {
    expect(() => check(`bearer ${adminKey}`)).not.toThrow();
  });

  it("asks for a credential when the header is missing", () => {
    const error = appErrorOf(() => check(undefined));
    expect(error.code).toBe("AUTHENTICATION_REQUIRED");
    expect(error.headers?.["WWW-Authenticate"]).toBe('Bearer realm="bayad"');
  });

  it("asks for a credential when the scheme is not Bearer", () => {
    expect(appErrorOf(() => check(`Basic ${Buffer.from(`admin:${adminKey}`).toString("base64")}`)).code).toBe(
      "AUTHENTICATION_REQUIRED",
    );
  });

  it.each([
    ["a different key of the same length", `${adminKey.slice(0, -1)}0`],
    ["a prefix of the key", adminKey.slice(0, 10)],
    ["the key with extra text", `${adminKey}x`],
  ])("refuses %s with INVALID_CREDENTIALS", (_label, presented) => {
    const error = appErrorOf(() => check(`Bearer ${presented}`));
    expect(error.code).toBe("INVALID_CREDENTIALS");
    expect(error.headers?.["WWW-Authenticate"]).toBe('Bearer realm="bayad"');
  });

  it("refuses to be built with an empty admin key", () => {
    expect(() => createAdminKeyCheck("")).toThrow();
  });
});

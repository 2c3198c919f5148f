import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { apiKeyScopes, type Caller } from "./caller.js";
import { requireScopes } from "./scopes.js";

const apiKeyCaller: Caller = {
  kind: "api_key",
  projectId: "prj_a",
  environment: "test",
  scopes: apiKeyScopes,
  subject: "key_a",
};

const otpService: Caller = {
  kind: "service_token",
  projectId: "prj_a",
  environment: "test",
  scopes: ["otp:generate"],
  subject: "svc-login",
};

function appErrorOf(work: () => void): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("requireScopes", () => {
  it("lets a caller holding one of the scopes through", () => {
    expect(() => requireScopes(apiKeyCaller, ["payments:refunds:write", "payments:write"])).not.toThrow();
  });

  it("needs no scope when the list is empty", () => {
    expect(() => requireScopes({ ...otpService, scopes: [] }, [])).not.toThrow();
  });

  it("refuses with 403 INSUFFICIENT_SCOPE naming the needed scopes", () => {
    const error = appErrorOf(() => requireScopes(otpService, ["otp:verify", "otp:read"]));
    expect(error.code).toBe("INSUFFICIENT_SCOPE");
    expect(error.httpStatus).toBe(403);
    expect(error.message).toContain("otp:verify");
    expect(error.message).toContain("otp:read");
  });

  it("refuses an API key where a service token is required, whatever its scopes", () => {
    const error = appErrorOf(() => requireScopes(apiKeyCaller, ["payments:read"], "service_token"));
    expect(error.code).toBe("SERVICE_TOKEN_REQUIRED");
    expect(error.httpStatus).toBe(403);
  });

  it("refuses an API key on an OTP operation even with no scope listed", () => {
    expect(appErrorOf(() => requireScopes(apiKeyCaller, [], "service_token")).code).toBe(
      "SERVICE_TOKEN_REQUIRED",
    );
  });

  it("lets a service token with the scope through where a service token is required", () => {
    expect(() => requireScopes(otpService, ["otp:generate"], "service_token")).not.toThrow();
  });

  it("still checks scopes for a service token where a service token is required", () => {
    expect(appErrorOf(() => requireScopes(otpService, ["otp:read"], "service_token")).code).toBe(
      "INSUFFICIENT_SCOPE",
    );
  });
});

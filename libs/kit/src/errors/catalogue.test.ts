import { describe, expect, it } from "vitest";
import { errorCatalogue, errorOutcome, type ErrorCode } from "./catalogue.js";

describe("errorOutcome", () => {
  it("marks the in-flight and reconciling codes unresolved, a rate limit refused and a delivery failure decided", () => {
    expect(errorOutcome("PAYMENT_OUTCOME_UNKNOWN")).toBe("unresolved");
    expect(errorOutcome("IDEMPOTENCY_OUTCOME_UNKNOWN")).toBe("unresolved");
    expect(errorOutcome("IDEMPOTENCY_KEY_IN_PROGRESS")).toBe("unresolved");
    expect(errorOutcome("RATE_LIMITED")).toBe("refused");
    expect(errorOutcome("SUSPICIOUS_TRAFFIC")).toBe("refused");
    // A write that lost every race to other writers wrote nothing: a retry may reuse the key.
    expect(errorOutcome("CONCURRENT_MODIFICATION")).toBe("refused");
    expect(errorOutcome("OTP_DELIVERY_FAILED")).toBe("decided");
    // The payment provider certainly did nothing (a 429, a refused key, no connection).
    expect(errorOutcome("PROVIDER_UNAVAILABLE")).toBe("refused");
  });

  it("marks a validation failure invalid: a service's 400 leaves its key unused, as the gateway's does", () => {
    expect(errorOutcome("VALIDATION_FAILED")).toBe("invalid");
    // A refused webhook URL is refused the same way every time: nothing was made.
    expect(errorOutcome("WEBHOOK_URL_NOT_ALLOWED")).toBe("invalid");
    // So is a payment method the environment does not offer: checked before anything is made.
    expect(errorOutcome("PAYMENT_METHOD_NOT_OFFERED")).toBe("invalid");
    // An amount outside the provider's limits is refused before the provider is asked or anything is written.
    expect(errorOutcome("AMOUNT_OUT_OF_RANGE")).toBe("invalid");
    // An SMS to a country the project does not allow is refused before anything is written or sent.
    expect(errorOutcome("SMS_COUNTRY_NOT_ALLOWED")).toBe("invalid");
  });

  it("defaults to decided below 500 and unresolved from 500 up", () => {
    const special = new Set<ErrorCode>([
      "PAYMENT_OUTCOME_UNKNOWN", "IDEMPOTENCY_OUTCOME_UNKNOWN", "IDEMPOTENCY_KEY_IN_PROGRESS", "RATE_LIMITED", "SUSPICIOUS_TRAFFIC", "CONCURRENT_MODIFICATION", "OTP_DELIVERY_FAILED", "VALIDATION_FAILED", "PROVIDER_UNAVAILABLE", "WEBHOOK_URL_NOT_ALLOWED",
      "PAYMENT_METHOD_NOT_OFFERED",
      "AMOUNT_OUT_OF_RANGE",
      "SMS_COUNTRY_NOT_ALLOWED",
    ]);
    for (const [code, entry] of Object.entries(errorCatalogue) as [ErrorCode, { http: number }][]) {
      if (special.has(code)) continue;
      expect(errorOutcome(code), code).toBe(entry.http < 500 ? "decided" : "unresolved");
    }
  });
});

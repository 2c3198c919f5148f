import { describe, expect, it } from "vitest";
import { readIdempotencyWindowMs } from "./idempotency-window.js";

describe("readIdempotencyWindowMs", () => {
  it("defaults to 24 hours for payments and 7 days for OTP, and reads the variables", () => {
    expect(readIdempotencyWindowMs({}, "payment")).toBe(86_400_000);
    expect(readIdempotencyWindowMs({}, "otp")).toBe(604_800_000);
    expect(readIdempotencyWindowMs({ PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS: "2" }, "payment")).toBe(2_000);
    expect(() => readIdempotencyWindowMs({ OTP_IDEMPOTENCY_WINDOW_SECONDS: "0" }, "otp")).toThrow(/OTP_IDEMPOTENCY_WINDOW_SECONDS/);
  });
});

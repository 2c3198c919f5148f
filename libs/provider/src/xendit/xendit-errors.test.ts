import { AppError, errorOutcome } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { ProviderNoAnswerError } from "../port.js";
import { XenditKeyRefusedError, XenditRejectedError, xenditErrorOf, xenditFailureOf, type XenditErrorAnswer } from "./xendit-errors.js";

const secretKey = "xnd_development_aVeryPrivateKeyValue9z8Y";
const answer = (status: number, body: unknown, headers: XenditErrorAnswer["headers"] = {}): XenditErrorAnswer => ({ status, body, headers });
const envelope = (error_code: string, message = "Xendit says no", extra: Record<string, unknown> = {}) => ({ error_code, message, ...extra });

describe("xenditFailureOf", () => {
  it("reads Xendit's documented 4xx refusals as rejected: nothing was made", () => {
    for (const [status, code] of [
      [400, "API_VALIDATION_ERROR"],
      [400, "INVALID_PAYMENT_DETAILS"],
      [400, "REFUND_IN_PROGRESS"],
      [403, "CHANNEL_NOT_ACTIVATED"],
      [403, "ACCOUNT_ACCESS_BLOCKED"],
    ] as const) {
      expect(xenditFailureOf(answer(status, envelope(code)))).toEqual({ kind: "rejected", status, errorCode: code });
    }
  });

  it("matches 409 by its status, whatever code the body names (the spec's duplicate says DATA_NOT_FOUND)", () => {
    expect(xenditFailureOf(answer(409, envelope("DATA_NOT_FOUND")))).toEqual({ kind: "duplicate", status: 409, errorCode: "DATA_NOT_FOUND" });
    expect(xenditFailureOf(answer(409, envelope("ACCOUNT_ALREADY_LINKED")))).toMatchObject({ kind: "duplicate" });
    expect(xenditFailureOf(answer(409, undefined))).toMatchObject({ kind: "duplicate", errorCode: "HTTP_409" });
  });

  it("reads 404 as not found and 401 as the key refused", () => {
    expect(xenditFailureOf(answer(404, envelope("DATA_NOT_FOUND")))).toEqual({ kind: "not_found", status: 404, errorCode: "DATA_NOT_FOUND" });
    expect(xenditFailureOf(answer(401, envelope("INVALID_API_KEY")))).toEqual({ kind: "key_refused" });
  });

  it("reads 429 with Rate-Limit-Reset, and the per-channel 400 throttle, as rate limited", () => {
    expect(xenditFailureOf(answer(429, envelope("RATE_LIMIT_EXCEEDED"), { "rate-limit-reset": "12" }))).toEqual({
      kind: "rate_limited",
      errorCode: "RATE_LIMIT_EXCEEDED",
      retryAfterSeconds: 12,
    });
    expect(xenditFailureOf(answer(429, envelope("RATE_LIMIT_EXCEEDED"), { "rate-limit-reset": "soon" }))).toEqual({ kind: "rate_limited", errorCode: "RATE_LIMIT_EXCEEDED" });
    expect(xenditFailureOf(answer(400, envelope("PAYMENT_REQUEST_RATE_LIMITED")))).toEqual({ kind: "rate_limited", errorCode: "PAYMENT_REQUEST_RATE_LIMITED" });
  });

  it("reads 503 CHANNEL_UNAVAILABLE and ISSUER_UNAVAILABLE as nothing made, any other 5xx as unknown", () => {
    expect(xenditFailureOf(answer(503, envelope("CHANNEL_UNAVAILABLE")))).toEqual({ kind: "unavailable", errorCode: "CHANNEL_UNAVAILABLE" });
    expect(xenditFailureOf(answer(503, envelope("ISSUER_UNAVAILABLE")))).toEqual({ kind: "unavailable", errorCode: "ISSUER_UNAVAILABLE" });
    expect(xenditFailureOf(answer(503, "<html>Service Unavailable</html>"))).toEqual({ kind: "no_answer", status: 503 });
    expect(xenditFailureOf(answer(500, envelope("SERVER_ERROR")))).toEqual({ kind: "no_answer", status: 500 });
    expect(xenditFailureOf(answer(502, undefined))).toEqual({ kind: "no_answer", status: 502 });
    // CHANNEL_UNAVAILABLE under another status is not Xendit's documented "did nothing".
    expect(xenditFailureOf(answer(500, envelope("CHANNEL_UNAVAILABLE")))).toEqual({ kind: "no_answer", status: 500 });
  });
});

describe("xenditErrorOf", () => {
  it("makes a refusal PROVIDER_REJECTED with Xendit's code and message in details, keys cut to four characters", () => {
    const error = xenditErrorOf(
      answer(400, envelope("API_VALIDATION_ERROR", `key ${secretKey} lacks Money-In WRITE`, { errors: ["request_amount must be a number", { path: "currency", message: "is required" }, 42] })),
      "createPaymentRequest",
      secretKey,
    );
    expect(error).toBeInstanceOf(XenditRejectedError);
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", providerStatus: 400, errorCode: "API_VALIDATION_ERROR", failure: "rejected" });
    expect((error as AppError).details).toEqual([
      `request: key …${secretKey.slice(-4)} lacks Money-In WRITE (API_VALIDATION_ERROR)`,
      "request: request_amount must be a number",
      "currency: is required",
    ]);
    expect(JSON.stringify({ message: error.message, details: (error as AppError).details })).not.toContain(secretKey);
  });

  it("keeps not found and duplicate apart on the refusal, for reconciliation", () => {
    expect(xenditErrorOf(answer(404, envelope("DATA_NOT_FOUND")), "getPaymentRequest", secretKey)).toMatchObject({ failure: "not_found", providerStatus: 404 });
    expect(xenditErrorOf(answer(409, envelope("DATA_NOT_FOUND")), "createRefund", secretKey)).toMatchObject({ failure: "duplicate", providerStatus: 409 });
  });

  it("makes a refused key PROVIDER_UNAVAILABLE naming only its last four characters", () => {
    const error = xenditErrorOf(answer(401, envelope("INVALID_API_KEY")), "createSession", secretKey);
    expect(error).toBeInstanceOf(XenditKeyRefusedError);
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", keyHint: `…${secretKey.slice(-4)}` });
    expect(error.message).not.toContain(secretKey);
  });

  it("makes a rate limit PROVIDER_UNAVAILABLE (nothing happened) with Retry-After from Rate-Limit-Reset", () => {
    const error = xenditErrorOf(answer(429, envelope("RATE_LIMIT_EXCEEDED", "slow down"), { "rate-limit-reset": "7.5" }), "createPaymentRequest", secretKey);
    expect(error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", headers: { "Retry-After": "8" } });
    expect(errorOutcome((error as AppError).code)).toBe("refused");
    expect(error.message).not.toContain("slow down");
  });

  it("makes an unavailable channel PROVIDER_UNAVAILABLE, and an unexplained 5xx an unknown outcome", () => {
    const unavailable = xenditErrorOf(answer(503, envelope("CHANNEL_UNAVAILABLE", "GCash is down")), "createPaymentRequest", secretKey);
    expect(unavailable).toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    expect(unavailable.message).not.toContain("GCash is down");
    expect(xenditErrorOf(answer(500, envelope("SERVER_ERROR")), "createPaymentRequest", secretKey)).toBeInstanceOf(ProviderNoAnswerError);
  });

  it("still gives a refusal details when the body is not Xendit's envelope", () => {
    const error = xenditErrorOf(answer(403, "<html>Forbidden</html>"), "createSession", secretKey);
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", errorCode: "HTTP_403", details: ["request: Xendit answered HTTP 403 without its error envelope"] });
  });
});

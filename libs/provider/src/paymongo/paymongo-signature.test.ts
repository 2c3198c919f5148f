import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { verifyPaymongoSignature } from "./paymongo-signature.js";

// timingSafeEqual is wrapped (still the real one) so a test can see that the comparison used it.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

// Computed once, outside the code under test, with:
//   node -e 'console.log(require("crypto").createHmac("sha256", SECRET).update(T + "." + BODY).digest("hex"))'
const FIXED = {
  secret: "whsk_fixedVectorSecret0123456789",
  t: 1764000000,
  body: '{"data":{"id":"evt_fixed1","type":"event","attributes":{"type":"payment.paid","livemode":false}}}',
  hex: "3b383fa2eab93fd68b918e66568499c48b725765f2f88dca6e337f1759ad1fa6",
};

const secret = "whsk_" + crypto.randomBytes(18).toString("base64url");
const body = JSON.stringify({ data: { id: "evt_1", type: "event", attributes: { type: "checkout_session.payment.paid", livemode: true } } });
const now = 1_800_000_000;
// Independent of the code under test: PayMongo's documented recipe, HMAC-SHA256 of `t.body`, in hex.
const sign = (key: string, t: number, payload: string) => crypto.createHmac("sha256", key).update(`${t}.${payload}`).digest("hex");

describe("verifyPaymongoSignature", () => {
  it("accepts the fixed vector in the te field for a test-mode account", () => {
    expect(
      verifyPaymongoSignature({
        header: `t=${FIXED.t},te=${FIXED.hex},li=`,
        rawBody: FIXED.body,
        secret: FIXED.secret,
        livemode: false,
        nowSeconds: FIXED.t + 5,
      }),
    ).toEqual({ valid: true, timestamp: FIXED.t });
  });

  it("accepts a live signature in li, from a string or from the raw bytes", () => {
    const header = `t=${now},te=,li=${sign(secret, now, body)}`;
    expect(verifyPaymongoSignature({ header, rawBody: body, secret, livemode: true, nowSeconds: now })).toEqual({ valid: true, timestamp: now });
    expect(verifyPaymongoSignature({ header, rawBody: Buffer.from(body), secret, livemode: true, nowSeconds: now }).valid).toBe(true);
  });

  it("refuses a signature made with another secret", () => {
    const header = `t=${now},te=,li=${sign("whsk_someoneElse", now, body)}`;
    expect(verifyPaymongoSignature({ header, rawBody: body, secret, livemode: true, nowSeconds: now })).toEqual({
      valid: false,
      reason: "mismatch",
    });
  });

  it("refuses a body changed after signing, even by one space", () => {
    const header = `t=${now},te=,li=${sign(secret, now, body)}`;
    expect(verifyPaymongoSignature({ header, rawBody: `${body} `, secret, livemode: true, nowSeconds: now }).valid).toBe(false);
  });

  it("checks only the mode's field: a test-mode signature never moves a live account, nor the reverse", () => {
    const testSigned = `t=${now},te=${sign(secret, now, body)},li=`;
    const liveSigned = `t=${now},te=,li=${sign(secret, now, body)}`;
    expect(verifyPaymongoSignature({ header: testSigned, rawBody: body, secret, livemode: true, nowSeconds: now })).toEqual({ valid: false, reason: "wrong_mode" });
    expect(verifyPaymongoSignature({ header: liveSigned, rawBody: body, secret, livemode: false, nowSeconds: now })).toEqual({ valid: false, reason: "wrong_mode" });
    // A right te beside a wrong li is still wrong for live mode.
    const mixed = `t=${now},te=${sign(secret, now, body)},li=${sign("whsk_other", now, body)}`;
    expect(verifyPaymongoSignature({ header: mixed, rawBody: body, secret, livemode: true, nowSeconds: now })).toEqual({ valid: false, reason: "mismatch" });
  });

  it("refuses timestamps more than the tolerance away, in either direction, and accepts the edges", () => {
    const at = (t: number, tolerance?: number) =>
      verifyPaymongoSignature({
        header: `t=${t},te=${sign(secret, t, body)},li=`,
        rawBody: body,
        secret,
        livemode: false,
        nowSeconds: now,
        ...(tolerance !== undefined ? { toleranceSeconds: tolerance } : {}),
      });
    expect(at(now - 300).valid).toBe(true);
    expect(at(now + 300).valid).toBe(true);
    expect(at(now - 301)).toEqual({ valid: false, reason: "timestamp_too_old" });
    expect(at(now + 301)).toEqual({ valid: false, reason: "timestamp_in_future" });
    expect(at(now - 30, 10).valid).toBe(false);
  });

  it("uses the clock when no time is given", () => {
    const t = Math.floor(Date.now() / 1000);
    const header = `t=${t},te=${sign(secret, t, body)},li=`;
    expect(verifyPaymongoSignature({ header, rawBody: body, secret, livemode: false }).valid).toBe(true);
    const old = t - 3600;
    expect(verifyPaymongoSignature({ header: `t=${old},te=${sign(secret, old, body)},li=`, rawBody: body, secret, livemode: false }).valid).toBe(false);
  });

  it.each([
    ["missing", undefined, "missing_header"],
    ["empty", "", "missing_header"],
    ["no fields", "garbage", "malformed_header"],
    ["no timestamp", `te=${"a".repeat(64)},li=`, "malformed_header"],
    ["a timestamp that is not a number", `t=soon,te=${"a".repeat(64)},li=`, "malformed_header"],
    ["a repeated field", `t=${now},te=${"a".repeat(64)},te=${"b".repeat(64)},li=`, "malformed_header"],
    ["a signature that is not hex", `t=${now},te=${"z".repeat(64)},li=`, "malformed_header"],
    ["a signature of the wrong length", `t=${now},te=${"a".repeat(63)},li=`, "malformed_header"],
    ["an empty name", `t=${now},=x,te=${"a".repeat(64)}`, "malformed_header"],
  ])("refuses a %s header without throwing", (_name, header, reason) => {
    expect(verifyPaymongoSignature({ header, rawBody: body, secret, livemode: false, nowSeconds: now })).toEqual({ valid: false, reason });
  });

  it("compares with timingSafeEqual on two 32-byte buffers", () => {
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    timingSafeEqual.mockClear();
    const right = sign(secret, now, body);
    // Differs in its last digit only, where a compare that stops at the first difference takes longest.
    const wrong = right.slice(0, -1) + (right.endsWith("0") ? "1" : "0");
    expect(verifyPaymongoSignature({ header: `t=${now},te=${wrong},li=`, rawBody: body, secret, livemode: false, nowSeconds: now }).valid).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(1);
    const [a, b] = timingSafeEqual.mock.calls[0]!;
    expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    expect(timingSafeEqual).toHaveReturnedWith(false);
  });

  it("never verifies with an empty secret", () => {
    const header = `t=${now},te=${sign("", now, body)},li=`;
    expect(verifyPaymongoSignature({ header, rawBody: body, secret: "", livemode: false, nowSeconds: now })).toEqual({ valid: false, reason: "no_secret" });
  });
});

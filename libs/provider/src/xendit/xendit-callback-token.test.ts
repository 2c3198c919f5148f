import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { verifyXenditCallbackToken } from "./xendit-callback-token.js";

// timingSafeEqual is wrapped (still the real one) so a test can see that the comparison used it, on equal lengths.
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const token = crypto.randomBytes(36).toString("base64url");

describe("verifyXenditCallbackToken", () => {
  it("accepts the account's token, as one header value or as a lone string", () => {
    expect(verifyXenditCallbackToken({ header: [token], token })).toEqual({ valid: true });
    expect(verifyXenditCallbackToken({ header: token, token })).toEqual({ valid: true });
  });

  it("refuses another token, a prefix of it, and the token with something appended", () => {
    const other = crypto.randomBytes(36).toString("base64url");
    for (const header of [other, token.slice(0, -1), `${token}x`, token.toUpperCase(), ` ${token}`]) {
      expect(verifyXenditCallbackToken({ header: [header], token })).toEqual({ valid: false, reason: "mismatch" });
    }
  });

  it("refuses a missing, empty or repeated header before comparing anything", () => {
    expect(verifyXenditCallbackToken({ header: undefined, token })).toEqual({ valid: false, reason: "missing_header" });
    expect(verifyXenditCallbackToken({ header: [], token })).toEqual({ valid: false, reason: "missing_header" });
    expect(verifyXenditCallbackToken({ header: "", token })).toEqual({ valid: false, reason: "empty_header" });
    // Even when one of the repeats is the right token: which value the sender meant is unknowable.
    expect(verifyXenditCallbackToken({ header: [token, token], token })).toEqual({ valid: false, reason: "repeated_header" });
    expect(verifyXenditCallbackToken({ header: ["wrong", token], token })).toEqual({ valid: false, reason: "repeated_header" });
  });

  it("refuses everything for an account without a token, an empty header included", () => {
    expect(verifyXenditCallbackToken({ header: ["anything"], token: "" })).toEqual({ valid: false, reason: "no_secret" });
    expect(verifyXenditCallbackToken({ header: [""], token: "" })).toEqual({ valid: false, reason: "empty_header" });
  });

  it("compares with timingSafeEqual on inputs of one length, whatever the header's length", () => {
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    verifyXenditCallbackToken({ header: ["short"], token });
    verifyXenditCallbackToken({ header: ["x".repeat(4096)], token });
    expect(compare).toHaveBeenCalledTimes(2);
    for (const [a, b] of compare.mock.calls) {
      expect(a.byteLength).toBe(32);
      expect(b.byteLength).toBe(32);
    }
  });

  it("never puts the token or the header in its answer", () => {
    const header = crypto.randomBytes(36).toString("base64url");
    const answers = [verifyXenditCallbackToken({ header: [header], token }), verifyXenditCallbackToken({ header: [token, header], token })];
    for (const answer of answers) {
      expect(JSON.stringify(answer)).not.toContain(token);
      expect(JSON.stringify(answer)).not.toContain(header);
    }
  });
});

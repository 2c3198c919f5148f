import { describe, expect, it } from "vitest";
import { codeMatches, generateCode, hashCode } from "./code-hash.js";
import { openMessage, sealMessage } from "./sealed-message.js";

const SECRET = "codes-test-secret-codes-test-secret-01";

describe("codes", () => {
  it("draws codes of the asked length with leading zeros kept", () => {
    for (const digits of [6, 8, 10]) {
      for (let i = 0; i < 50; i++) expect(generateCode(digits)).toMatch(new RegExp(`^\\d{${digits}}$`));
    }
  });

  it("matches a code only against its own OTP's hash under the same secret", () => {
    const stored = hashCode(SECRET, "otp_a", "012345");
    expect(codeMatches(SECRET, "otp_a", "012345", stored)).toBe(true);
    expect(codeMatches(SECRET, "otp_a", "012346", stored)).toBe(false);
    expect(codeMatches(SECRET, "otp_b", "012345", stored)).toBe(false);
    expect(codeMatches(`${SECRET}x`, "otp_a", "012345", stored)).toBe(false);
    expect(stored).not.toContain("012345");
  });

  it("seals a pending message so that only its own OTP and secret open it", () => {
    const sealed = sealMessage(SECRET, "otp_a", { recipient: "+639171234567", code: "482913" });
    expect(sealed).not.toContain("482913");
    expect(sealed).not.toContain("9171234567");
    expect(openMessage(SECRET, "otp_a", sealed)).toEqual({ recipient: "+639171234567", code: "482913" });
    expect(() => openMessage(SECRET, "otp_b", sealed)).toThrow();
    expect(() => openMessage(`${SECRET}x`, "otp_a", sealed)).toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { keyedDigest, openSealed, sealText } from "./secrets.js";

const secret = "a-test-secret-of-at-least-32-characters";

describe("keyedDigest", () => {
  it("depends on the secret and the purpose, not only on the value", () => {
    const digest = keyedDigest(secret, "fingerprint", "+639171234567");
    expect(keyedDigest(secret, "fingerprint", "+639171234567")).toBe(digest);
    expect(keyedDigest(`${secret}x`, "fingerprint", "+639171234567")).not.toBe(digest);
    expect(keyedDigest(secret, "rate-limit", "+639171234567")).not.toBe(digest);
    expect(digest).not.toContain("639171234567");
  });
});

describe("sealText", () => {
  it("opens with the same secret, purpose and context, and holds nothing in clear", () => {
    const sealed = sealText(secret, "idempotency request", "rec_1", '{"code":"123456"}');
    expect(sealed).not.toContain("123456");
    expect(openSealed(secret, "idempotency request", "rec_1", sealed)).toBe('{"code":"123456"}');
  });

  it("seals the same text differently each time", () => {
    expect(sealText(secret, "p", "c", "same")).not.toBe(sealText(secret, "p", "c", "same"));
  });

  it("refuses another secret, purpose or context, and an altered text", () => {
    const sealed = sealText(secret, "p", "rec_1", "hello");
    expect(() => openSealed(`${secret}x`, "p", "rec_1", sealed)).toThrow();
    expect(() => openSealed(secret, "q", "rec_1", sealed)).toThrow();
    expect(() => openSealed(secret, "p", "rec_2", sealed)).toThrow();
    const parts = sealed.split(".");
    const data = Buffer.from(parts[3]!, "base64url");
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString("base64url");
    expect(() => openSealed(secret, "p", "rec_1", parts.join("."))).toThrow();
  });
});

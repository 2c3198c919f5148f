import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseKeyRing, singleKeyRing } from "./key-ring.js";
import { keyedDigest, openSealed, resealText, sealedKeyId, sealText } from "./secrets.js";

const secret = "a-test-secret-of-at-least-32-characters";
const oldKey = "the-old-key-of-at-least-32-characters-0000";
const newKey = "the-new-key-of-at-least-32-characters-1111";
const rotating = parseKeyRing(`legacy:${oldKey},k2:${newKey}`, 32);

/** A text sealed the way every value was before sealed values named their key: `v1.<iv>.<tag>.<data>`. */
function sealV1(key: string, purpose: string, context: string, text: string): string {
  const cipherKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `bayad sealed text v1: ${purpose}`, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", cipherKey, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

/** `sealed` with one of its base64url parts replaced. */
function withPart(sealed: string, index: number, bytes: Buffer): string {
  const parts = sealed.split(".");
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

describe("keyedDigest", () => {
  it("depends on the secret and the purpose, not only on the value", () => {
    const digest = keyedDigest(secret, "fingerprint", "+639171234567");
    expect(keyedDigest(secret, "fingerprint", "+639171234567")).toBe(digest);
    expect(keyedDigest(`${secret}x`, "fingerprint", "+639171234567")).not.toBe(digest);
    expect(keyedDigest(secret, "rate-limit", "+639171234567")).not.toBe(digest);
    expect(digest).not.toContain("639171234567");
  });

  it("is HMAC-SHA256 of purpose NUL value under the secret's UTF-8 bytes, as stored digests were made", () => {
    for (const key of [secret, "ключ-с-не-ASCII-символами-и-длиной-больше-64-байт-ключ-ключ", "k"]) {
      for (const value of ["+639171234567", "", "proj_1\u0000test\u0000key-0123456789abcdef"]) {
        const expected = createHmac("sha256", key).update(`fingerprint\u0000${value}`).digest("base64url");
        expect(keyedDigest(key, "fingerprint", value)).toBe(expected);
      }
    }
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
    const data = Buffer.from(sealed.split(".")[4]!, "base64url");
    data[0] = data[0]! ^ 1;
    expect(() => openSealed(secret, "p", "rec_1", withPart(sealed, 4, data))).toThrow();
    const tag = Buffer.from(sealed.split(".")[3]!, "base64url");
    tag[15] = tag[15]! ^ 1;
    expect(() => openSealed(secret, "p", "rec_1", withPart(sealed, 3, tag))).toThrow();
  });

  it("names the key that sealed it (v2.<key id>.…): the ring's newest, its last", () => {
    const sealed = sealText(rotating, "p", "rec_1", "hello");
    expect(sealed.split(".").slice(0, 2)).toEqual(["v2", "k2"]);
    expect(sealedKeyId(sealed)).toBe("k2");
    // The newest key alone opens it: it was not sealed with the old one.
    expect(openSealed(parseKeyRing(`k2:${newKey}`, 32), "p", "rec_1", sealed)).toBe("hello");
    expect(() => openSealed(singleKeyRing(oldKey), "p", "rec_1", sealed)).toThrow(/key "k2"/);
  });

  it("seals under the legacy id when given one key", () => {
    expect(sealedKeyId(sealText(secret, "p", "c", "x"))).toBe("legacy");
  });
});

describe("openSealed", () => {
  it("opens a v1 text (no key id) with the ring's legacy key, and with the single key it was sealed with", () => {
    const sealed = sealV1(oldKey, "provider-secret-key", "pa_1", "sk_test_abc");
    expect(openSealed(oldKey, "provider-secret-key", "pa_1", sealed)).toBe("sk_test_abc");
    expect(openSealed(rotating, "provider-secret-key", "pa_1", sealed)).toBe("sk_test_abc");
    expect(() => openSealed(parseKeyRing(`k2:${newKey}`, 32), "provider-secret-key", "pa_1", sealed)).toThrow(/key "legacy"/);
  });

  it("refuses a key id the ring does not hold", () => {
    const sealed = sealText(parseKeyRing(`gone:${oldKey}`, 32), "p", "c", "hello");
    expect(() => openSealed(rotating, "p", "c", sealed)).toThrow(/key "gone", which the key ring does not hold/);
  });

  it("refuses a tag shorter than 16 bytes before deciphering, even one that GCM would accept", () => {
    const sealed = sealText(rotating, "p", "c", "hello");
    const shortTag = Buffer.from(sealed.split(".")[3]!, "base64url").subarray(0, 4);
    expect(() => openSealed(rotating, "p", "c", withPart(sealed, 3, shortTag))).toThrow(/4-byte tag, not 16/);
  });

  it("refuses an IV that is not 12 bytes", () => {
    const sealed = sealText(rotating, "p", "c", "hello");
    expect(() => openSealed(rotating, "p", "c", withPart(sealed, 2, randomBytes(16)))).toThrow(/16-byte IV, not 12/);
    expect(() => openSealed(rotating, "p", "c", withPart(sealed, 2, randomBytes(8)))).toThrow(/8-byte IV/);
  });

  it("refuses what is not a sealed text", () => {
    expect(() => openSealed(rotating, "p", "c", "v3.k2.a.b.c")).toThrow(/unknown sealed text format/);
    expect(() => openSealed(rotating, "p", "c", "v2.k2.a.b")).toThrow(/unknown sealed text format/);
  });
});

describe("resealText", () => {
  it("moves a value to the newest key, and leaves one already under it alone", () => {
    const old = sealText(singleKeyRing(oldKey), "p", "c", "hello");
    const moved = resealText(rotating, "p", "c", old)!;
    expect(sealedKeyId(moved)).toBe("k2");
    expect(openSealed(rotating, "p", "c", moved)).toBe("hello");
    expect(resealText(rotating, "p", "c", moved)).toBeUndefined();
    expect(sealedKeyId(resealText(rotating, "p", "c", sealV1(oldKey, "p", "c", "hello"))!)).toBe("k2");
  });
});

import { describe, expect, it } from "vitest";
import { maskRecipient } from "./masking.js";
import { recipientLookupKey } from "@bayad/messaging";
import { normalizeRecipient } from "./recipient.js";

describe("recipients", () => {
  it("spells a Philippine number one way whatever way it was typed", () => {
    for (const spelling of ["+639171234567", "639171234567", "09171234567", "0917-123-4567", " +63 917 123 4567 "]) {
      expect(normalizeRecipient("sms", spelling)).toBe("+639171234567");
    }
    expect(normalizeRecipient("email", " Juan@Example.PH ")).toBe("juan@example.ph");
    expect(recipientLookupKey("09171234567")).toBe("+639171234567");
    expect(recipientLookupKey("JUAN@example.ph")).toBe("juan@example.ph");
  });

  it("refuses what is not a phone number or an address, naming recipient", () => {
    expect(() => normalizeRecipient("sms", "12345")).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
    expect(() => normalizeRecipient("email", "a@b")).toThrow(expect.objectContaining({ details: ["recipient: must be an e-mail address"] }));
    expect(() => normalizeRecipient("email", "a@b.ph,c@d.ph")).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
  });

  it("masks numbers to country code and last digits, with a fixed-width mask", () => {
    expect(maskRecipient("sms", "+639171234567")).toBe("+63*******4567");
    expect(maskRecipient("sms", "+14155550123")).toBe("+1*******0123");
    expect(maskRecipient("sms", "+35312345678")).toBe("+353*******5678");
    expect(maskRecipient("sms", "+6321234")).toBe("+63*******34");
  });

  it("masks addresses to the first letter and the domain", () => {
    expect(maskRecipient("email", "juan.dela.cruz@example.com")).toBe("j***@example.com");
    expect(maskRecipient("email", "a@b.ph")).toBe("a***@b.ph");
  });
});

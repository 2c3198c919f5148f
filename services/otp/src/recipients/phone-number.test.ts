import { describe, expect, it } from "vitest";
import { parseSmsNumber } from "./phone-number.js";

describe("parseSmsNumber", () => {
  it("takes a mobile number in any spelling and normalises it to E.164, with its country", () => {
    for (const spelling of ["+639171234567", "09171234567", "639171234567", "0917 123 4567"]) {
      expect(parseSmsNumber(spelling)).toEqual({ e164: "+639171234567", country: "PH" });
    }
    // A US number may be mobile or fixed: it can receive SMS.
    expect(parseSmsNumber("+1 415 555 2671")).toEqual({ e164: "+14155552671", country: "US" });
  });

  it("refuses a landline, naming recipient and why", () => {
    expect(() => parseSmsNumber("+63 2 8123 4567")).toThrow(
      expect.objectContaining({ code: "VALIDATION_FAILED", details: ["recipient: a landline cannot receive SMS"] }),
    );
  });

  it("refuses numbers that are not valid, and what is not a number", () => {
    expect(() => parseSmsNumber("+639001234567")).toThrow(expect.objectContaining({ details: ["recipient: not a valid number for PH"] }));
    expect(() => parseSmsNumber("12345")).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
    expect(() => parseSmsNumber("not-a-number")).toThrow(expect.objectContaining({ details: ["recipient: not a phone number"] }));
  });
});

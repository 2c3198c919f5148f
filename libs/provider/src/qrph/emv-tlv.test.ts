import { AppError } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { encodeDataObject, encodeTemplate, parseEmvTemplate, parseEmvTlv } from "./emv-tlv.js";

describe("encodeDataObject", () => {
  it.each([
    [9, "09"],
    [10, "10"],
    [99, "99"],
  ])("writes a %i-character value with length %s", (length, lengthText) => {
    const value = "x".repeat(length);
    expect(encodeDataObject("59", value)).toBe(`59${lengthText}${value}`);
  });

  it("pads a one-character length to two digits", () => {
    expect(encodeDataObject("01", "7")).toBe("01017");
  });

  it("rejects a value of 100 characters instead of cutting it", () => {
    expect(() => encodeDataObject("59", "x".repeat(100))).toThrow(AppError);
  });

  it("rejects an empty value, an ID that is not two digits, and non-ASCII text", () => {
    expect(() => encodeDataObject("59", "")).toThrow(AppError);
    expect(() => encodeDataObject("5", "x")).toThrow(AppError);
    expect(() => encodeDataObject("59", "Parañaque")).toThrow(AppError);
  });
});

describe("encodeTemplate", () => {
  it("wraps its data objects in one data object whose length covers them all", () => {
    expect(encodeTemplate("62", [["05", "ref-1"], ["07", "T1"]])).toBe("6215" + "0505ref-1" + "0702T1");
  });

  it("rejects a template whose data objects total more than 99 characters", () => {
    expect(() => encodeTemplate("62", [["05", "x".repeat(50)], ["07", "y".repeat(50)]])).toThrow(AppError);
  });
});

describe("parseEmvTlv", () => {
  it("reads back what was encoded, nested templates included", () => {
    const payload = encodeDataObject("00", "01") + encodeTemplate("62", [["05", "ref-1"]]);
    const objects = parseEmvTlv(payload);
    expect([...objects.entries()]).toEqual([["00", "01"], ["62", "0505ref-1"]]);
    expect(parseEmvTemplate(objects, "62")?.get("05")).toBe("ref-1");
    expect(parseEmvTemplate(objects, "26")).toBeUndefined();
  });

  it("rejects a truncated value, a missing header and a repeated ID", () => {
    expect(() => parseEmvTlv("0005abc")).toThrow(AppError);
    expect(() => parseEmvTlv("000201x")).toThrow(AppError);
    expect(() => parseEmvTlv("000201000201")).toThrow(AppError);
  });
});

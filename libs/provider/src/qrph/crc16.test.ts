import { describe, expect, it } from "vitest";
import { crc16CcittFalse } from "./crc16.js";

// A published QR Ph sample (PayMongo's QR transfer reference): its last four characters are the
// checksum its issuer computed over everything before them.
const PUBLISHED_SAMPLE =
  "00020101021227770012com.p2pqrpay0111PAEYPHM2XXX02089996440304129858893861530514+63-9913729861" +
  "5204601653036085406123.455802PH5913ENG-19818-ged6006Manila62980012com.p2pqrpay0103***0214" +
  "+63-99137298620303***0408LOYALTY10506test120605cust10708123456780803***6304ED03";

describe("crc16CcittFalse", () => {
  it("gives the standard check value 29B1 for 123456789", () => {
    expect(crc16CcittFalse("123456789")).toBe("29B1");
  });

  it("agrees with the checksum of a published QR Ph payload", () => {
    expect(crc16CcittFalse(PUBLISHED_SAMPLE.slice(0, -4))).toBe(PUBLISHED_SAMPLE.slice(-4));
  });

  it("changes when one character changes", () => {
    expect(crc16CcittFalse("123456780")).not.toBe(crc16CcittFalse("123456789"));
  });

  it("pads to four uppercase hex digits", () => {
    expect(crc16CcittFalse("")).toBe("FFFF");
    for (const text of ["a", "ab", "QR Ph", "0002010102"]) {
      expect(crc16CcittFalse(text)).toMatch(/^[0-9A-F]{4}$/);
    }
  });
});

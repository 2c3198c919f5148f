import { AppError } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { crc16CcittFalse } from "./crc16.js";
import { parseEmvTemplate, parseEmvTlv } from "./emv-tlv.js";
import { buildQrPhPayload, parseQrPhPayload, type QrPhPayloadInput } from "./qrph-payload.js";

const input: QrPhPayloadInput = {
  merchantName: "Kape Delivery",
  merchantCity: "Makati",
  merchantCategoryCode: "5999",
  acquirerId: "BAYDPHM2XXX",
  merchantId: "MRCH000123",
  amountMinor: 15000,
  referenceId: "order-1001",
  paymentIntentId: "pi_4fJ9kQ2mXz7LpR8sT1vW3yBn",
};

function build(overrides: Partial<QrPhPayloadInput> = {}): string {
  return buildQrPhPayload({ ...input, ...overrides });
}

/** Flips one character of `payload` at `index` to a different one of the same kind. */
function tamper(payload: string, index: number): string {
  const replacement = payload[index] === "1" ? "2" : "1";
  return payload.slice(0, index) + replacement + payload.slice(index + 1);
}

describe("buildQrPhPayload", () => {
  it("writes the root data objects of a dynamic QR Ph code in order", () => {
    const objects = parseEmvTlv(build());
    expect([...objects.keys()]).toEqual(["00", "01", "28", "52", "53", "54", "58", "59", "60", "62", "63"]);
    expect(objects.get("00")).toBe("01");
    expect(objects.get("01")).toBe("12");
    expect(objects.get("52")).toBe("5999");
    expect(objects.get("53")).toBe("608");
    expect(objects.get("54")).toBe("150.00");
    expect(objects.get("58")).toBe("PH");
    expect(objects.get("59")).toBe("Kape Delivery");
    expect(objects.get("60")).toBe("Makati");
  });

  it("puts the acquirer and merchant id in the QR Ph P2M merchant account template", () => {
    const account = parseEmvTemplate(parseEmvTlv(build()), "28");
    expect(account && [...account.entries()]).toEqual([
      ["00", "ph.ppmi.p2m"],
      ["01", "BAYDPHM2XXX"],
      ["03", "MRCH000123"],
    ]);
  });

  it("carries the reference label and the whole payment intent id in the additional data", () => {
    const additional = parseEmvTemplate(parseEmvTlv(build()), "62");
    expect(additional?.get("00")).toBe("ph.ppmi.qrph");
    expect(additional?.get("05")).toBe("order-1001");
    const bayad = additional && parseEmvTemplate(additional, "50");
    expect(bayad?.get("00")).toBe("ph.bayad");
    expect(bayad?.get("01")).toBe("pi_4fJ9kQ2mXz7LpR8sT1vW3yBn");
  });

  it("ends with 6304 and the CRC of everything before it", () => {
    const payload = build();
    expect(payload.slice(-8, -4)).toBe("6304");
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
  });

  it.each([
    [1, "0.01"],
    [10, "0.10"],
    [100, "1.00"],
    [15000, "150.00"],
    [123456789, "1234567.89"],
  ])("formats %i centavos as %s", (amountMinor, text) => {
    expect(parseEmvTlv(build({ amountMinor })).get("54")).toBe(text);
  });

  it.each([0, -100, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])("rejects amountMinor %s", (amountMinor) => {
    expect(() => build({ amountMinor })).toThrow(AppError);
  });

  it("rejects an amount whose text would exceed the 13 characters of data object 54", () => {
    expect(parseEmvTlv(build({ amountMinor: 999_999_999_999 })).get("54")).toBe("9999999999.99");
    expect(() => build({ amountMinor: 1_000_000_000_000 })).toThrow(AppError);
  });

  it("cuts a long merchant name to 25 characters and a long city to 15", () => {
    const objects = parseEmvTlv(build({
      merchantName: "Kape Delivery Corporation of the Philippines",
      merchantCity: "San Jose del Monte City",
    }));
    expect(objects.get("59")).toBe("Kape Delivery Corporation");
    expect(objects.get("60")).toBe("San Jose del Mo");
  });

  it("folds accents and drops other non-ASCII text, without leaving a trailing space", () => {
    const objects = parseEmvTlv(build({
      merchantName: "Café Ñino  Parañaque",
      merchantCity: "Las Piñas City 1740",
      referenceId: "注文 order-7 ✓",
    }));
    expect(objects.get("59")).toBe("Cafe Nino Paranaque");
    expect(objects.get("60")).toBe("Las Pinas City");
    expect(parseEmvTemplate(objects, "62")?.get("05")).toBe("order-7");
  });

  it("cuts a reference over 25 characters to 25", () => {
    const referenceId = "r".repeat(40);
    expect(parseQrPhPayload(build({ referenceId })).referenceId).toBe("r".repeat(25));
  });

  it.each([
    [9, "5909"],
    [10, "5910"],
    [25, "5925"],
  ])("encodes a %i-character merchant name with length prefix %s", (length, prefix) => {
    const merchantName = "M".repeat(length);
    expect(build({ merchantName })).toContain(`${prefix}${merchantName}60`);
  });

  it("rejects identifiers that do not fit instead of cutting them", () => {
    expect(() => build({ merchantId: "m".repeat(80) })).toThrow(AppError);
    expect(() => build({ paymentIntentId: `pi_${"x".repeat(32)}` })).toThrow(AppError);
    expect(() => build({ merchantCategoryCode: "599" })).toThrow(AppError);
  });

  it("rejects a name, city or reference with nothing printable left", () => {
    expect(() => build({ merchantName: "咖啡" })).toThrow(AppError);
    expect(() => build({ merchantCity: "   " })).toThrow(AppError);
    expect(() => build({ referenceId: "注文" })).toThrow(AppError);
  });
});

describe("parseQrPhPayload", () => {
  it("reads back the amount, reference, intent id and merchant with a valid CRC", () => {
    expect(parseQrPhPayload(build({ amountMinor: 123456789 }))).toEqual({
      amountMinor: 123456789,
      currency: "PHP",
      referenceId: "order-1001",
      paymentIntentId: "pi_4fJ9kQ2mXz7LpR8sT1vW3yBn",
      merchantName: "Kape Delivery",
      merchantCity: "Makati",
      crcValid: true,
    });
  });

  it("reports a changed amount digit as an invalid CRC", () => {
    const tampered = build().replace("5406150.00", "5406250.00");
    expect(parseQrPhPayload(tampered)).toMatchObject({ amountMinor: 25000, crcValid: false });
  });

  it("reports a changed checksum or a missing one as an invalid CRC", () => {
    const payload = build();
    expect(parseQrPhPayload(tamper(payload, payload.length - 1)).crcValid).toBe(false);
    expect(parseQrPhPayload(payload.slice(0, -8)).crcValid).toBe(false);
  });

  it("reads amounts written with fewer decimals", () => {
    const payload = build().replace("5406150.00", "5403150");
    expect(parseQrPhPayload(payload).amountMinor).toBe(15000);
  });

  it("rejects a QR Ph code that carries no Bayad payment intent", () => {
    const foreign =
      "00020101021227770012com.p2pqrpay0111PAEYPHM2XXX02089996440304129858893861530514+63-9913729861" +
      "5204601653036085406123.455802PH5913ENG-19818-ged6006Manila62980012com.p2pqrpay0103***0214" +
      "+63-99137298620303***0408LOYALTY10506test120605cust10708123456780803***6304ED03";
    expect(() => parseQrPhPayload(foreign)).toThrow(AppError);
  });

  it("rejects a payload in another currency", () => {
    expect(() => parseQrPhPayload(build().replace("5303608", "5303840"))).toThrow(AppError);
  });
});

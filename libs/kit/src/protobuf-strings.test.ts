import { describe, expect, it } from "vitest";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { HealthCheckRequestSchema } from "@bayad/proto";

/** Protobuf-ES (since 2.14) writes ASCII itself and the rest with TextEncoder.encodeInto. */
describe("protobuf string fields on the wire", () => {
  const samples = ["", "chk_VqwSB3V1bmndHjR3cgMyjYK2", "Piña ₱1,500.00 — 日本 🇵🇭", "x".repeat(300), "₱".repeat(100)];
  const encode = (service: string) => toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service }));

  it("writes the UTF-8 bytes TextEncoder writes, after the field's tag and length", () => {
    const encoder = new TextEncoder();
    for (const text of samples.slice(1)) {
      const utf8 = encoder.encode(text);
      const bytes = encode(text);
      expect(bytes[0]).toBe(0x0a);
      expect(Array.from(bytes.subarray(bytes.length - utf8.length))).toEqual(Array.from(utf8));
    }
  });

  it("round-trips ASCII and non-ASCII text", () => {
    for (const text of samples) expect(fromBinary(HealthCheckRequestSchema, encode(text)).service).toBe(text);
  });

  it("writes a lone surrogate as U+FFFD, as TextEncoder does", () => {
    expect(fromBinary(HealthCheckRequestSchema, encode("lone \ud800 surrogate")).service).toBe("lone \ufffd surrogate");
  });
});

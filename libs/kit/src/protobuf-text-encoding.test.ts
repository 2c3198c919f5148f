import { describe, expect, it } from "vitest";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { getTextEncoding } from "@bufbuild/protobuf/wire";
import { HealthCheckRequestSchema } from "@bayad/proto";

describe("protobuf text encoding (configured by @bayad/proto)", () => {
  const samples = ["", "chk_VqwSB3V1bmndHjR3cgMyjYK2", "Piña ₱1,500.00 — 日本 🇵🇭", "lone \ud800 surrogate"];

  it("encodes with Buffer rather than TextEncoder", () => {
    expect(Buffer.isBuffer(getTextEncoding().encodeUtf8("chk_1"))).toBe(true);
  });

  it("writes the same UTF-8 bytes as TextEncoder", () => {
    const encoder = new TextEncoder();
    for (const text of samples) expect(Array.from(getTextEncoding().encodeUtf8(text))).toEqual(Array.from(encoder.encode(text)));
  });

  it("round-trips string fields through the wire format", () => {
    for (const text of samples.slice(0, 3)) {
      const bytes = toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service: text }));
      expect(fromBinary(HealthCheckRequestSchema, bytes).service).toBe(text);
    }
  });
});

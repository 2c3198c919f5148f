import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isPlainObject, MAX_BODY_BYTES, parseJson, readBody } from "./http-io.js";

const asRequest = (chunks: Buffer[]) => Readable.from(chunks) as unknown as IncomingMessage;
const refused = (what: string) => () => new Error(what);

describe("readBody and parseJson", () => {
  it("reads a body up to MAX_BODY_BYTES and throws the simulator's own error past it", async () => {
    await expect(readBody(asRequest([Buffer.from("{\"a\":"), Buffer.from("1}")]), refused("too large"))).resolves.toBe('{"a":1}');
    const half = Buffer.alloc(MAX_BODY_BYTES / 2, "x");
    await expect(readBody(asRequest([half, half]), refused("too large"))).resolves.toHaveLength(MAX_BODY_BYTES);
    await expect(readBody(asRequest([half, half, Buffer.from("x")]), refused("too large"))).rejects.toThrow("too large");
  });

  it("parses JSON, takes an empty body as undefined and throws the simulator's own error for what is not JSON", () => {
    expect(parseJson('{"a":[1]}', refused("not json"))).toEqual({ a: [1] });
    expect(parseJson("  \n", refused("not json"))).toBeUndefined();
    expect(() => parseJson("{a:1}", refused("not json"))).toThrow("not json");
  });

  it("isPlainObject takes objects, not arrays or null", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject("{}")).toBe(false);
  });
});

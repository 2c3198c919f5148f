import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { publicUrlResolver } from "./public-url.js";

/** What a call gave: its value, or the kind of error it threw. */
function outcome(call: () => string): { value: string } | { error: string } {
  try {
    return { value: call() };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

const bases = ["http://127.0.0.1:3000", "https://pay.example.ph/", "https://pay.example.ph/bayad/v1/", "HTTP://Example.COM:80/x?y#z", "http://[::1]:8080"];

describe("publicUrlResolver", () => {
  it("answers as new URL(path, base) for any path and base, invalid ones included", () => {
    // Paths built from the characters that matter: dots, percent signs, backslashes, doubled
    // slashes, spaces and non-ASCII all take the parsing path; plain ones the joined one.
    const pathChar = fc.constantFrom(..."ab/09-_~?=&.%\\ é#:@".split(""));
    const path = fc.oneof(
      fc.array(pathChar, { maxLength: 24 }).map((chars) => `/${chars.join("")}`),
      fc.array(pathChar, { maxLength: 24 }).map((chars) => chars.join("")),
      fc.constantFrom("/sandbox/checkouts/co_8Vx2?token=Ab-_9", "https://checkout.paymongo.com/cs_1", "//evil.example/x", "/a/../b", "/a/./b"),
    );
    fc.assert(
      fc.property(fc.constantFrom(...bases), path, (base, candidate) => {
        expect(outcome(() => publicUrlResolver(() => base)(candidate))).toEqual(outcome(() => new URL(candidate, base).toString()));
      }),
      { numRuns: 2000 },
    );
  });

  it("follows the base when it changes (set once the gateway listens)", () => {
    let base = "http://127.0.0.1:1";
    const resolve = publicUrlResolver(() => base);
    expect(resolve("/sandbox/qr/pi_1")).toBe("http://127.0.0.1:1/sandbox/qr/pi_1");
    base = "https://pay.example.ph";
    expect(resolve("/sandbox/qr/pi_1")).toBe("https://pay.example.ph/sandbox/qr/pi_1");
  });
});

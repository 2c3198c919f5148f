import fc from "fast-check";
import { AppError } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { readXenditAmount, toXenditAmount, XENDIT_MAX_EXACT_MINOR } from "./xendit-amounts.js";

/** Pesos as a person writes them, built with BigInt division: independent of the string slicing under test. */
function writtenPesos(amountMinor: number): string {
  const minor = BigInt(amountMinor);
  const cents = (minor % 100n).toString().padStart(2, "0").replace(/0+$/, "");
  return cents === "" ? `${minor / 100n}` : `${minor / 100n}.${cents}`;
}

const jsonText = (amountMinor: number) => JSON.stringify({ request_amount: toXenditAmount(amountMinor) });

// 0, the smallest amounts, around ₱1, QR Ph's ₱50,000 and the e-wallets' ₱100,000 maxima, and the bound.
const EDGES = [0, 1, 9, 10, 99, 100, 101, 5_000_000, 5_000_001, 10_000_000, 10_000_001, XENDIT_MAX_EXACT_MINOR - 1, XENDIT_MAX_EXACT_MINOR];
const edgeAmount = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.constantFrom(...EDGES).chain((edge) => fc.integer({ min: Math.max(0, edge - 1_000), max: Math.min(XENDIT_MAX_EXACT_MINOR, edge + 1_000) })),
  fc.integer({ min: 0, max: XENDIT_MAX_EXACT_MINOR }),
);

describe("toXenditAmount", () => {
  it("writes centavos as the pesos a person would write", () => {
    expect(jsonText(1)).toBe('{"request_amount":0.01}');
    expect(jsonText(10)).toBe('{"request_amount":0.1}');
    expect(jsonText(100)).toBe('{"request_amount":1}');
    expect(jsonText(123456)).toBe('{"request_amount":1234.56}');
    expect(jsonText(5_000_000)).toBe('{"request_amount":50000}');
    expect(jsonText(0)).toBe('{"request_amount":0}');
  });

  it("gives every edge amount the JSON text of its exact peso value", () => {
    fc.assert(
      fc.property(edgeAmount, (amountMinor) => {
        expect(jsonText(amountMinor)).toBe(`{"request_amount":${writtenPesos(amountMinor)}}`);
      }),
    );
  });

  it("refuses, with AMOUNT_OUT_OF_RANGE, amounts that are not whole non-negative centavos", () => {
    for (const amount of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => toXenditAmount(amount)).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    }
  });

  it("refuses amounts from 2^46 pesos up, the MAX_SAFE_INTEGER region included, naming the bound", () => {
    fc.assert(
      fc.property(fc.integer({ min: XENDIT_MAX_EXACT_MINOR + 1, max: Number.MAX_SAFE_INTEGER }), (amountMinor) => {
        const error = captured(() => toXenditAmount(amountMinor));
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE" });
        expect((error as AppError).details?.[0]).toContain(String(XENDIT_MAX_EXACT_MINOR));
      }),
    );
    expect(() => toXenditAmount(Number.MAX_SAFE_INTEGER)).toThrow(AppError);
  });

  it("draws the bound where doubles first stop telling centavos apart", () => {
    // Just past the bound two amounts one centavo apart are the same JSON number: no exact text exists.
    expect(Number("70368744177664.01")).toBe(Number("70368744177664.02"));
    // Just below it, each centavo keeps its own double.
    expect(Number("70368744177663.98")).not.toBe(Number("70368744177663.99"));
    expect(String(Number("70368744177663.99"))).toBe("70368744177663.99");
    expect(toXenditAmount(XENDIT_MAX_EXACT_MINOR)).toBe(70368744177663.99);
  });
});

describe("readXenditAmount", () => {
  it("reads Xendit's numbers and numeric strings as integer centavos", () => {
    expect(readXenditAmount(1234.56)).toEqual({ ok: true, amountMinor: 123456 });
    expect(readXenditAmount(0.1)).toEqual({ ok: true, amountMinor: 10 });
    expect(readXenditAmount(50000)).toEqual({ ok: true, amountMinor: 5_000_000 });
    expect(readXenditAmount("1.00")).toEqual({ ok: true, amountMinor: 100 });
    expect(readXenditAmount("0.01")).toEqual({ ok: true, amountMinor: 1 });
    expect(readXenditAmount(JSON.parse('{"amount":100000.00}').amount)).toEqual({ ok: true, amountMinor: 10_000_000 });
  });

  it("refuses what is not an exact amount of at most two decimals", () => {
    for (const value of [1.005, "1.005", Number.NaN, "NaN", -1, "-1", "1e2", "+1", ".5", "1.", " 1", "01", Infinity, 1e-7, null, undefined, true, {}]) {
      expect(readXenditAmount(value)).toMatchObject({ ok: false });
    }
  });

  it("refuses amounts past the bound, as numbers and as strings", () => {
    expect(readXenditAmount(Number("70368744177664.01"))).toEqual({ ok: false, problem: "too large to be an exact amount" });
    expect(readXenditAmount("90071992547409.91")).toMatchObject({ ok: false });
    expect(readXenditAmount(1e21)).toMatchObject({ ok: false });
  });

  it("gives back the centavos it was sent, through JSON and as a string, for every edge amount", () => {
    fc.assert(
      fc.property(edgeAmount, (amountMinor) => {
        const sent = toXenditAmount(amountMinor);
        expect(readXenditAmount(sent)).toEqual({ ok: true, amountMinor });
        expect(readXenditAmount(JSON.parse(jsonText(amountMinor)).request_amount)).toEqual({ ok: true, amountMinor });
        expect(readXenditAmount(writtenPesos(amountMinor))).toEqual({ ok: true, amountMinor });
      }),
    );
  });

  it("never reads a third decimal as centavos", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 1, max: 9 }), (amountMinor, third) => {
        const minor = BigInt(amountMinor);
        const text = `${minor / 100n}.${(minor % 100n).toString().padStart(2, "0")}${third}`;
        expect(readXenditAmount(text)).toMatchObject({ ok: false });
        expect(readXenditAmount(Number(text))).toMatchObject({ ok: false });
      }),
    );
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

import { describe, expect, it } from "vitest";
import { formatPesos } from "./peso-amount.js";

describe("formatPesos", () => {
  it("writes centavos as pesos exactly, grouped by thousands", () => {
    expect(formatPesos(123_450)).toBe("₱1,234.50");
    expect(formatPesos(49_900)).toBe("₱499.00");
    expect(formatPesos(100_000_000)).toBe("₱1,000,000.00");
    expect(formatPesos(99_999_999)).toBe("₱999,999.99");
  });

  it("keeps the centavos of small amounts and zero", () => {
    expect(formatPesos(0)).toBe("₱0.00");
    expect(formatPesos(1)).toBe("₱0.01");
    expect(formatPesos(10)).toBe("₱0.10");
    expect(formatPesos(100)).toBe("₱1.00");
    expect(formatPesos(-500)).toBe("-₱5.00");
  });

  it("is exact where floating point is not, up to the largest safe integer", () => {
    // 0.1 + 0.2 pesos: in centavos there is nothing to round.
    expect(formatPesos(10 + 20)).toBe("₱0.30");
    expect(formatPesos(Number.MAX_SAFE_INTEGER)).toBe("₱90,071,992,547,409.91");
  });

  it("refuses what is not a whole number of centavos", () => {
    expect(() => formatPesos(12.5)).toThrow(RangeError);
    expect(() => formatPesos(Number.NaN)).toThrow(RangeError);
    expect(() => formatPesos(2 ** 53)).toThrow(RangeError);
  });
});

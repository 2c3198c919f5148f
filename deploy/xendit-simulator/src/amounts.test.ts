import { describe, expect, it } from "vitest";
import { readPesos, toCentavos } from "./amounts.js";
import { XenditSimulatorError } from "./api-error.js";

describe("readPesos", () => {
  it.each([0, 1, 0.01, 10.1, 99999.99, 100000])("accepts %d", (amount) => {
    expect(readPesos(amount, "amount", { positive: false })).toBe(amount);
  });

  it.each([[0.001], [10.005], [-1], ["10.00"], [Number.NaN], [1e-7], [null]])("refuses %s with API_VALIDATION_ERROR", (amount) => {
    expect(() => readPesos(amount, "amount", { positive: false })).toThrow(XenditSimulatorError);
  });

  it("refuses zero where a positive amount is needed", () => {
    expect(() => readPesos(0, "amount", { positive: true })).toThrow(/greater than 0/);
  });
});

describe("toCentavos", () => {
  it.each([
    [0.29, 29],
    [1.1, 110],
    [100000, 10_000_000],
    [39.9, 3990],
  ])("turns %d pesos into exactly %d centavos", (pesos, centavos) => {
    expect(toCentavos(pesos)).toBe(centavos);
  });
});

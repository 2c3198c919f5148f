import { describe, expect, it } from "vitest";
import { parseAmountBound } from "./amount-filter";

describe("parseAmountBound: pesos typed in the search as integer centavos", () => {
  it.each([
    ["150", "15000"],
    ["150.5", "15050"],
    ["150.05", "15005"],
    ["0.29", "29"],
    ["0.57", "57"],
    ["1.15", "115"],
    ["1,500.00", "150000"],
    ["  42.10 ", "4210"],
    ["0", "0"],
    ["-300.50", "-30050"],
    ["−300.50", "-30050"],
    ["-0.00", "0"],
    ["90071992547409.91", "9007199254740991"],
  ])("%j → %s centavos", (text, minor) => {
    expect(parseAmountBound(text)).toEqual({ minor });
  });

  it.each(["", "abc", "1.234", "1.", ".5", "1e3", "+5", "--1", "1 000", "₱100"])("refuses %j", (text) => {
    expect(parseAmountBound(text)).toHaveProperty("error");
  });

  it("refuses an amount past the largest safe integer of centavos", () => {
    expect(parseAmountBound("90071992547409.92")).toEqual({ error: "The amount is too large." });
  });
});

import { describe, expect, it } from "vitest";
import { portFrom } from "./run-simulator.js";

describe("portFrom", () => {
  it("reads PORT as a port number, the simulator's own when unset", () => {
    expect(portFrom(undefined, 12111)).toBe(12111);
    expect(portFrom("0", 12111)).toBe(0);
    expect(portFrom("65535", 12111)).toBe(65535);
  });

  it("refuses what is not a port number", () => {
    for (const value of ["abc", "-1", "65536", "80.5"]) expect(portFrom(value, 12111)).toBeUndefined();
  });
});

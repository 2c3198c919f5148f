import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { Faults, isFaultStatus, playSocketFault, type FaultMatch } from "./faults.js";

interface TestFault extends FaultMatch {
  status: number | "timeout" | "reset";
}

const refuseNonStatus = (fault: TestFault) => {
  if (!isFaultStatus(fault.status)) throw new Error("bad status");
};

describe("Faults", () => {
  it("matches by method (any case) and path prefix, each fault for its next `times` requests", () => {
    const faults = new Faults<TestFault>(refuseNonStatus);
    faults.add({ method: "post", path: "/v1/refunds", status: 502, times: 2 });
    faults.add({ status: "reset" });
    expect(faults.take("POST", "/v1/refunds/ref_1")).toMatchObject({ status: 502 });
    expect(faults.list()).toEqual([
      { method: "post", path: "/v1/refunds", status: 502, times: 1 },
      { status: "reset", times: 1 },
    ]);
    // A GET is not the POST fault's: the catch-all one plays.
    expect(faults.take("GET", "/v1/refunds/ref_1")).toEqual({ status: "reset" });
    expect(faults.take("POST", "/v1/refunds")).toMatchObject({ status: 502 });
    expect(faults.take("POST", "/v1/refunds")).toBeUndefined();
    expect(faults.list()).toEqual([]);
  });

  it("arms nothing when the simulator's check refuses a fault", () => {
    const faults = new Faults<TestFault>(refuseNonStatus);
    expect(() => faults.add({ status: 302 })).toThrow("bad status");
    expect(faults.list()).toEqual([]);
    expect(faults.take("GET", "/")).toBeUndefined();
  });

  it("clears every armed fault", () => {
    const faults = new Faults<TestFault>(refuseNonStatus);
    faults.add({ status: 500, times: 3 });
    faults.clear();
    expect(faults.take("GET", "/")).toBeUndefined();
  });

  it("keeps its own copy of a fault, so changing the caller's object later arms nothing else", () => {
    const faults = new Faults<TestFault>(refuseNonStatus);
    const fault: TestFault = { path: "/v1/a", status: 500 };
    faults.add(fault);
    fault.path = "/v1/b";
    expect(faults.take("GET", "/v1/b")).toBeUndefined();
    expect(faults.take("GET", "/v1/a")).toMatchObject({ path: "/v1/a" });
  });
});

describe("isFaultStatus", () => {
  it("takes 400–599, timeout and reset, nothing else", () => {
    for (const status of [400, 429, 599, "timeout", "reset"]) expect(isFaultStatus(status)).toBe(true);
    for (const status of [399, 600, 500.5, "500", "slow", undefined, null]) expect(isFaultStatus(status)).toBe(false);
  });
});

describe("playSocketFault", () => {
  const request = () => {
    let destroyed = false;
    const req = { socket: { destroy: () => (destroyed = true) } } as unknown as IncomingMessage;
    return { req, destroyed: () => destroyed };
  };

  it("destroys the socket for reset, holds it for timeout, and leaves a status to the simulator", () => {
    const reset = request();
    expect(playSocketFault("reset", reset.req)).toBe(true);
    expect(reset.destroyed()).toBe(true);

    const timeout = request();
    expect(playSocketFault("timeout", timeout.req)).toBe(true);
    expect(timeout.destroyed()).toBe(false);

    const status = request();
    expect(playSocketFault(503, status.req)).toBe(false);
    expect(status.destroyed()).toBe(false);
  });
});

import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { AppError } from "./app-error.js";
import { fromConnectError, toConnectError } from "./connect-errors.js";

describe("errors across the gRPC hop", () => {
  it("keep their catalogue code, message and details", () => {
    const original = new AppError("INVALID_STATE_TRANSITION", "A paid checkout cannot be cancelled.", {
      details: ["status: is paid"],
    });
    const wire = toConnectError(original);
    expect(wire.code).toBe(Code.FailedPrecondition);
    const back = fromConnectError(wire);
    expect(back.code).toBe("INVALID_STATE_TRANSITION");
    expect(back.message).toBe("A paid checkout cannot be cancelled.");
    expect(back.details).toEqual(["status: is paid"]);
    expect(back.httpStatus).toBe(409);
  });

  it("turn an unreachable service into SERVICE_UNAVAILABLE", () => {
    expect(fromConnectError(new ConnectError("connect ECONNREFUSED", Code.Unavailable)).code).toBe("SERVICE_UNAVAILABLE");
  });

  it("turn anything unexplained into INTERNAL_ERROR without its text", () => {
    const error = fromConnectError(new Error("secret internal detail"));
    expect(error.code).toBe("INTERNAL_ERROR");
    expect(error.message).not.toContain("secret");
  });
});

import { AppError } from "@bayad/kit";
import { describe, expect, it } from "vitest";
import { settleOutcome } from "./outcome.js";

const errorBody = (error: AppError, correlationId: string) => ({ success: false, code: error.code, correlationId });
const failing = (error: unknown) => async () => {
  throw error;
};

describe("settleOutcome", () => {
  it("keeps an error the service decided on as errorBody words it, with the catalogue's status", async () => {
    const outcome = await settleOutcome(failing(new AppError("RESOURCE_NOT_FOUND")), errorBody, "corr-1");
    expect(outcome).toEqual({ known: true, response: { status: 404, body: { success: false, code: "RESOURCE_NOT_FOUND", correlationId: "corr-1" } } });
  });

  it("leaves a server fault unknown, and a refused or invalid request without a response", async () => {
    expect(await settleOutcome(failing(new Error("socket hang up")), errorBody, "corr-2")).toMatchObject({ known: false, error: { code: "INTERNAL_ERROR" } });
    expect(await settleOutcome(failing(new AppError("RATE_LIMITED")), errorBody, "corr-3")).toMatchObject({ known: false, refused: true });
    expect(await settleOutcome(failing(new AppError("VALIDATION_FAILED")), errorBody, "corr-4")).toMatchObject({ known: false, invalid: true });
  });
});

import { describe, expect, it } from "vitest";
import { detailsByField } from "./field-details";

describe("detailsByField", () => {
  it("sorts a 400's details by the field each names, reading dotted indexes as brackets", () => {
    const shown = new Set(["appName", "dunning.steps[1].offsetDays"]);
    const { byField, other } = detailsByField(
      ["appName: must be at most 30 characters", "dunning.steps.1.offsetDays: must be <= 60", "appName: must use GSM-7 characters only", "body: is not valid JSON"],
      (field) => shown.has(field),
    );
    expect(Object.fromEntries(byField)).toEqual({
      appName: ["must be at most 30 characters", "must use GSM-7 characters only"],
      "dunning.steps[1].offsetDays": ["must be <= 60"],
    });
    expect(other).toEqual(["body: is not valid JSON"]);
  });

  it("keeps details that name no field as other", () => {
    expect(detailsByField(["something went wrong"], () => true)).toEqual({ byField: new Map(), other: ["something went wrong"] });
  });
});

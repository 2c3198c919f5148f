import { describe, expect, it } from "vitest";
import { control, matchControl } from "./control-routes.js";

type Run = (params: string[]) => string;

const routes = [
  control<Run>("POST", "refunds/:id/settle", ([id]) => `settle ${id}`),
  control<Run>("GET", "faults", () => "list"),
  control<Run>("DELETE", "faults", () => "clear"),
];

describe("matchControl", () => {
  it("finds the control for the method and path, with its :id segments decoded", () => {
    const matched = matchControl(routes, "POST", "/__simulator/refunds/ref%2F1/settle");
    expect(matched?.params).toEqual(["ref/1"]);
    expect(matched?.run(matched.params)).toBe("settle ref/1");
    expect(matchControl(routes, "DELETE", "/__simulator/faults")?.run([])).toBe("clear");
  });

  it("finds nothing for another method, a longer path, one segment too many or a path outside /__simulator/", () => {
    expect(matchControl(routes, "PUT", "/__simulator/faults")).toBeUndefined();
    expect(matchControl(routes, undefined, "/__simulator/faults")).toBeUndefined();
    expect(matchControl(routes, "GET", "/__simulator/faults/extra")).toBeUndefined();
    expect(matchControl(routes, "POST", "/__simulator/refunds/a/b/settle")).toBeUndefined();
    expect(matchControl(routes, "GET", "/faults")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { durableFloor } from "../scenarios.js";
import { durableFloorDocument, durableFloorPath } from "./durable-floor-document.js";

describe("durableFloorDocument", () => {
  it("is the ~1 KB JSON the durable floor's requests carry", () => {
    const bytes = Buffer.byteLength(JSON.stringify(durableFloorDocument));
    expect(bytes).toBeGreaterThanOrEqual(900);
    expect(bytes).toBeLessThanOrEqual(1_200);
    const scenario = durableFloor("baseline.durable-floor", "floor", durableFloorPath);
    expect(scenario.plan).toMatchObject({ method: "POST", path: "/documents", body: JSON.stringify(durableFloorDocument) });
    expect(scenario.expected).toEqual(["201"]);
  });
});

import { describe, expect, it } from "vitest";
import { defineStateMachine } from "./state-machine.js";

const door = defineStateMachine(
  "door",
  { open: { from: ["closed"], to: "open" }, close: { from: ["open"], to: "closed" } },
  { open: "opened", close: "closed" },
);

describe("state machines", () => {
  it("move along the table", () => {
    expect(door.next("closed", "open")).toBe("open");
    expect(door.can("open", "open")).toBe(false);
  });

  it("refuse a move the table does not have with 409 INVALID_STATE_TRANSITION", () => {
    expect(() => door.next("open", "open")).toThrow(expect.objectContaining({ code: "INVALID_STATE_TRANSITION", message: "A door with status open cannot be opened." }));
  });
});

import { describe, expect, it } from "vitest";
import { deploymentProblem, readinessProblem, STANDALONE_PROBLEM } from "./hello-reply.js";

// Shapes of real `hello` replies, trimmed to the fields that matter.
const primary = { isWritablePrimary: true, secondary: false, setName: "rs0", hosts: ["db-0:27017"] };
const secondary = { isWritablePrimary: false, secondary: true, setName: "rs0" };
const arbiter = { isWritablePrimary: false, secondary: false, arbiterOnly: true, setName: "rs0" };
const recovering = { isWritablePrimary: false, secondary: false, setName: "rs0" };
const standalone = { isWritablePrimary: true, maxWireVersion: 25 };
const mongos = { isWritablePrimary: true, msg: "isdbgrid" };

describe("deploymentProblem", () => {
  it("accepts a replica set member, whatever its role, and mongos", () => {
    for (const hello of [primary, secondary, arbiter, recovering, mongos]) expect(deploymentProblem(hello)).toBeUndefined();
  });

  it("refuses a standalone server, in a line that follows MONGODB_URI", () => {
    expect(deploymentProblem(standalone)).toBe(STANDALONE_PROBLEM);
    expect(deploymentProblem({ ...standalone, setName: "" })).toBe(STANDALONE_PROBLEM);
    expect(`MONGODB_URI ${STANDALONE_PROBLEM}`).toBe(
      "MONGODB_URI points at a standalone MongoDB server: Bayad needs a replica set (a single-node one will do) or mongos, because its writes use transactions",
    );
  });
});

describe("readinessProblem", () => {
  it("is ready on a writable primary and on mongos", () => {
    expect(readinessProblem(primary)).toBeUndefined();
    expect(readinessProblem(mongos)).toBeUndefined();
  });

  it("is not ready on a secondary, an arbiter or a member still recovering, and says which", () => {
    expect(readinessProblem(secondary)).toMatch(/is a secondary, not a writable primary/);
    expect(readinessProblem(arbiter)).toMatch(/is an arbiter, not a writable primary/);
    expect(readinessProblem(recovering)).toMatch(/no role yet .* not a writable primary/);
  });

  it("is never ready on a standalone server, though it calls itself a writable primary", () => {
    expect(readinessProblem(standalone)).toBe(`MONGODB_URI ${STANDALONE_PROBLEM}`);
  });
});

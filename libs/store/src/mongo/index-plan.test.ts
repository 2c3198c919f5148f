import { describe, expect, it } from "vitest";
import type { IndexSpec } from "../port.js";
import { planIndexes, type ListedIndex } from "./index-plan.js";

// listIndexes entries as the server returns them (v and the rest included).
const idIndex: ListedIndex & { v: number } = { v: 2, key: { _id: 1 }, name: "_id_" };
const emailUnique: ListedIndex & { v: number } = { v: 2, key: { email: 1 }, name: "email_unique", unique: true };
const openByProject: ListedIndex & { v: number } = {
  v: 2,
  key: { projectId: 1, createdAt: -1 },
  name: "open_by_project",
  partialFilterExpression: { status: "open", dueAt: { $exists: true } },
};
const expiry: ListedIndex & { v: number } = { v: 2, key: { expiresAt: 1 }, name: "expiry", expireAfterSeconds: 0 };

const EMAIL_UNIQUE: IndexSpec = { name: "email_unique", keys: { email: 1 }, unique: true };
const OPEN_BY_PROJECT: IndexSpec = { name: "open_by_project", keys: { projectId: 1, createdAt: -1 }, partial: { status: "open", dueAt: { $exists: true } } };
const EXPIRY: IndexSpec = { name: "expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 };

const live = [idIndex, emailUnique, openByProject, expiry];

describe("planIndexes", () => {
  it("builds every declared index on a collection that has none yet", () => {
    expect(planIndexes("customers", [], [EMAIL_UNIQUE, EXPIRY], [])).toEqual({ create: [EMAIL_UNIQUE, EXPIRY], drop: [], conflicts: [] });
  });

  it("changes nothing when every index exists as declared", () => {
    expect(planIndexes("customers", live, [EMAIL_UNIQUE, OPEN_BY_PROJECT, EXPIRY], [])).toEqual({ create: [], drop: [], conflicts: [] });
  });

  it("builds the new-named index and drops the retired one, which exists", () => {
    const emailLookup: IndexSpec = { name: "email_lookup", keys: { email: 1, projectId: 1 } };
    const plan = planIndexes("customers", live, [emailLookup, OPEN_BY_PROJECT, EXPIRY], ["email_unique", "never_existed"]);
    expect(plan).toEqual({ create: [emailLookup], drop: ["email_unique"], conflicts: [] });
  });

  it.each<[string, IndexSpec, string]>([
    ["key order", { ...OPEN_BY_PROJECT, keys: { createdAt: -1, projectId: 1 } }, "keys"],
    ["a key's direction", { ...OPEN_BY_PROJECT, keys: { projectId: 1, createdAt: 1 } }, "keys"],
    ["uniqueness", { ...OPEN_BY_PROJECT, unique: true }, "uniqueness"],
    ["the partial filter", { ...OPEN_BY_PROJECT, partial: { status: "open" } }, "partial filter"],
    ["the partial filter's field order", { ...OPEN_BY_PROJECT, partial: { dueAt: { $exists: true }, status: "open" } }, "partial filter"],
    ["no partial filter", { name: "open_by_project", keys: { projectId: 1, createdAt: -1 } }, "partial filter"],
  ])("refuses, never drops, a live index whose %s changed under the same name", (_change, changed, difference) => {
    const plan = planIndexes("invoices", live, [changed], []);
    expect(plan.create).toEqual([]);
    expect(plan.drop).toEqual([]);
    expect(plan.conflicts).toEqual([
      {
        collection: "invoices",
        index: "open_by_project",
        problem: expect.stringContaining(`exists with other ${difference} than declared`) as string,
      },
    ]);
    expect(plan.conflicts[0]?.problem).toMatch(/declare the changed index under a new name beside "open_by_project", and list "open_by_project" in retiredIndexes in a later release/);
  });

  it("refuses a unique index declared no longer unique, and a TTL changed, naming both differences at once", () => {
    const plan = planIndexes("customers", live, [{ ...EMAIL_UNIQUE, unique: false }, { ...EXPIRY, expireAfterSeconds: 60 }], []);
    expect(plan.conflicts.map((c) => [c.index, c.problem.split(" than")[0]])).toEqual([
      ["email_unique", "exists with other uniqueness"],
      ["expiry", "exists with other TTL"],
    ]);
  });

  it("takes an absent option as its default: unique false, no filter, no TTL", () => {
    const plain: ListedIndex = { key: { ref: 1 }, name: "ref", unique: false };
    expect(planIndexes("c", [plain], [{ name: "ref", keys: { ref: 1 } }], []).conflicts).toEqual([]);
  });

  it("refuses an index declared and retired at once, and retiring the primary key's index", () => {
    const plan = planIndexes("customers", live, [EMAIL_UNIQUE], ["email_unique", "_id_"]);
    expect(plan.conflicts.map((c) => c.index)).toEqual(["email_unique", "_id_"]);
    expect(plan.drop).toEqual([]);
  });

  it("refuses a new name for an index that exists exactly as declared under another name", () => {
    const renamed: IndexSpec = { ...EMAIL_UNIQUE, name: "email_unique_v2" };
    const plan = planIndexes("customers", live, [renamed], ["email_unique"]);
    expect(plan.create).toEqual([]);
    expect(plan.conflicts).toEqual([
      { collection: "customers", index: "email_unique_v2", problem: expect.stringMatching(/exactly as the live index "email_unique".*keep the name "email_unique"/) as string },
    ]);
  });
});

import { describe, expect, it } from "vitest";
import { illFormedStrings } from "./well-formed-strings.js";

describe("illFormedStrings", () => {
  it("names each string and property name that holds a lone surrogate", () => {
    const body = JSON.parse('{"a":"ok \\ud83d\\udcb3","b":"x\\ud800","c":[1,"\\udc00"],"d":{"\\udbff":"v","e":{"f":"\\udfff"}}}');
    expect(illFormedStrings(body, "body").sort()).toEqual([
      "b: must be well-formed Unicode (it holds a lone surrogate)",
      "c.1: must be well-formed Unicode (it holds a lone surrogate)",
      "d.e.f: must be well-formed Unicode (it holds a lone surrogate)",
      "d: a property name must be well-formed Unicode (it holds a lone surrogate)",
    ]);
    expect(illFormedStrings("\ud800", "body")).toEqual(["body: must be well-formed Unicode (it holds a lone surrogate)"]);
    expect(illFormedStrings({ a: "💳", b: ["\ufffd"], c: null, d: 1 }, "body")).toEqual([]);
  });

  it("finds a lone surrogate under nesting far deeper than a call stack", () => {
    const depth = 200_000;
    const text = `${'{"n":['.repeat(depth)}"\\ud800"${"]}".repeat(depth)}`;
    const details = illFormedStrings(JSON.parse(text), "body");
    expect(details).toHaveLength(1);
    expect(details[0]).toMatch(/^n\.0\.n\.0\..*….*\.n\.0: must be well-formed Unicode/);
    expect(details[0]!.length).toBeLessThan(300);
    expect(illFormedStrings(JSON.parse(text.replace("\\ud800", "ok")), "body")).toEqual([]);
    // Parsing 200,000 levels twice takes a few seconds on a busy 2-core machine: not a timing check.
  }, 60_000);

  it("names at most 20 of them", () => {
    expect(illFormedStrings(Array.from({ length: 1000 }, () => "\ud800"), "body")).toHaveLength(20);
  });
});

/**
 * Every value a template reads exists: found from the templates' syntax trees (every branch,
 * not only the rendered ones), each .Values path must be declared by the schema and present in
 * values.yaml unless the schema makes it optional; and every value in values.yaml is read.
 */
import { describe, expect, it } from "vitest";
import { loadChart } from "./chart.js";
import { covers, lookupSchema, valueLeaves, valuesHave } from "./schema-paths.js";
import { findTemplateReads } from "./values-paths.js";

const chart = loadChart();
const reads = findTemplateReads(chart);
const show = (path: string[]) => `.Values.${path.join(".")}`;

describe("the values the templates read", () => {
  it("are found without problems (known templates, dict keys, variables)", () => {
    expect(reads.problems).toEqual([]);
    // A sanity check that the analysis reaches into includes and ranges.
    expect(reads.values.map((p) => p.join("."))).toEqual(
      expect.arrayContaining(["components.*.autoscaling.enabled", "otp.smtp.host", "gateway.ingress.hosts.*.paths.*.pathType", "billing.clockLeaseMs"]),
    );
  });

  it("are declared by values.schema.json", () => {
    expect(reads.values.filter((p) => !lookupSchema(chart.schema, p).declared).map(show)).toEqual([]);
  });

  it("are in values.yaml, unless the schema declares them optional", () => {
    const missing = reads.values.filter((p) => !valuesHave(chart.defaults, p) && !lookupSchema(chart.schema, p).optional);
    expect(missing.map(show)).toEqual([]);
  });

  it("cover every value of values.yaml (none is dead)", () => {
    const unread = valueLeaves(chart.defaults).filter((leaf) => !reads.values.some((r) => covers(r, leaf)));
    expect(unread.map(show)).toEqual([]);
  });

  it("use only the built-in objects the renderer models", () => {
    const allowed = ["Chart.AppVersion", "Chart.Name", "Chart.Version", "Release.Name", "Release.Namespace", "Release.Service"];
    expect(reads.rootFields.filter((f) => !allowed.includes(f))).toEqual([]);
  });
});

/**
 * `helm lint --strict` over the chart with its default values and with each scenario's values
 * (the same values files the other suites render with `helm template`): Chart.yaml, the values
 * against values.schema.json, every template rendered and its output parsed as Kubernetes YAML,
 * with lint warnings counted as failures.
 */
import { describe, expect, it } from "vitest";
import { chartDir, withValuesFiles } from "./chart.js";
import { helmAvailable, runHelm } from "./test-support/helm.js";
import { scenarios } from "./test-support/scenarios.js";

const lint = (overrides: unknown[], namespace = "default") =>
  withValuesFiles(overrides, (files) => runHelm(["lint", "--strict", chartDir, "--namespace", namespace, ...files.flatMap((f) => ["-f", f])]));

if (helmAvailable("helm lint")) {
  describe("helm lint --strict", () => {
    it.each(scenarios)("passes with the values of $name", ({ overrides, namespace }) => {
      expect(lint(overrides, namespace)).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    });

    it("fails on values the schema refuses (the check is not vacuous)", () => {
      expect(() => lint([{ components: { payments: { replicas: "3" } } }])).toThrow(/components\.payments\.replicas: Invalid type/);
    });
  });
}

/**
 * The rendered objects are valid Kubernetes API objects: each scenario's manifests against the
 * kubernetes-models validators (types, required fields, formats) and type-checked against its
 * TypeScript interfaces (unknown fields), and against API-server rules neither encodes (names,
 * labels, port names).
 */
import { describe, expect, it } from "vitest";
import { loadChart, renderChart } from "./chart.js";
import { helmAvailable } from "./test-support/helm.js";
import { kindKey, typeCheckObjects, validateObjects, type Labelled } from "./kube-schemas.js";
import { pods } from "./test-support/kube.js";
import { renderScenarios } from "./test-support/scenarios.js";

const chart = loadChart();
const ready = helmAvailable("the rendered objects' schemas");
const rendered = ready ? renderScenarios(chart) : [];
const labelled = (r: (typeof rendered)[number]): Labelled[] =>
  r.manifests.map((m) => ({ label: `${r.name}: ${m.source} ${String(m.object.kind)} ${String((m.object.metadata as { name?: string })?.name)}`, object: m.object }));

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const labelValue = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const labelKey = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const ianaServiceName = /^(?=.*[a-z])[a-z0-9]([a-z0-9]|-(?!-))*$/;

describe.each(rendered)("the objects rendered from $name", (r) => {
  it("are only of the expected kinds, each named once", () => {
    const keys = r.manifests.map((m) => `${kindKey(m.object)} ${String((m.object.metadata as { name: string }).name)}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(r.manifests.length).toBeGreaterThan(0);
  });

  it("pass the Kubernetes OpenAPI validators of kubernetes-models", () => {
    expect(validateObjects(labelled(r))).toEqual([]);
  });

  it("have names and labels the API server accepts", () => {
    const problems: string[] = [];
    for (const { object } of r.manifests) {
      const meta = object.metadata as { name: string; namespace?: string; labels?: Record<string, string> };
      const nameRule = object.kind === "Service" ? dns1035Label : dns1123Label;
      if (!nameRule.test(meta.name) || meta.name.length > 63) problems.push(`name ${meta.name}`);
      if (meta.namespace !== undefined) problems.push(`${meta.name} sets its namespace (helm sets it)`);
      for (const [k, v] of Object.entries(meta.labels ?? {})) {
        if (!labelKey.test(k) || !labelValue.test(v) || v.length > 63) problems.push(`${meta.name} label ${k}=${v}`);
      }
    }
    for (const pod of pods(r.manifests)) {
      for (const c of pod.spec.containers) {
        for (const p of c.ports ?? []) if (!ianaServiceName.test(p.name) || p.name.length > 15) problems.push(`port name ${p.name}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe.runIf(ready)("object names", () => {
  it("stay within 63 characters for the longest release name helm allows (53)", () => {
    const releaseName = `r${"x".repeat(51)}z`;
    const names = renderChart(chart, { releaseName }).manifests.map((m) => (m.object.metadata as { name: string }).name);
    expect(names.filter((n) => n.length > 63 || !dns1123Label.test(n))).toEqual([]);
  });
});

describe.runIf(ready)("the Kubernetes TypeScript interfaces", () => {
  it("accept every object of every scenario without unknown fields", () => {
    expect(typeCheckObjects(rendered.flatMap(labelled))).toEqual([]);
  }, 60_000);

  it("do catch an unknown field and a wrong type (the check is not vacuous)", () => {
    const deployment = structuredClone(rendered[0]!.manifests.find((m) => m.object.kind === "Deployment")!.object) as Record<string, any>;
    deployment.spec.template.spec.containers[0].readinesProbe = deployment.spec.template.spec.containers[0].readinessProbe;
    deployment.spec.replicas = "2";
    const errors = typeCheckObjects([{ label: "broken", object: deployment }]);
    expect(errors.join("\n")).toMatch(/readinesProbe/);
    expect(errors.join("\n")).toMatch(/replicas/);
    expect(validateObjects([{ label: "broken", object: deployment }]).join("\n")).toMatch(/replicas must be integer/);
  }, 60_000);
});

/** Small helpers over rendered Kubernetes objects for the tests. */
import type { Manifest } from "../chart.js";

export type Obj = Record<string, any>;

export const components = ["gateway", "payments", "billing", "links", "records", "otp", "webhooks"] as const;
export const services = components.filter((c) => c !== "gateway");

export function ofKind(manifests: Manifest[], kind: string): Obj[] {
  return manifests.map((m) => m.object as Obj).filter((o) => o.kind === kind);
}

export function byName(manifests: Manifest[], kind: string, name: string): Obj {
  const found = ofKind(manifests, kind).find((o) => o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** A LabelSelector's meaning; an empty selector selects everything, as in Kubernetes. */
export function selects(selector: Selector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case "In":
        return key in labels && values.includes(labels[key]!);
      case "NotIn":
        return !(key in labels) || !values.includes(labels[key]!);
      case "Exists":
        return key in labels;
      case "DoesNotExist":
        return !(key in labels);
      default:
        throw new Error(`unknown operator ${operator}`);
    }
  });
  return byLabels && byExpressions;
}

/** The pod templates of the Deployments, with the component they run. */
export function pods(manifests: Manifest[]): { component: string; deployment: Obj; labels: Record<string, string>; spec: Obj }[] {
  return ofKind(manifests, "Deployment").map((d) => ({
    component: d.metadata.labels["app.kubernetes.io/component"],
    deployment: d,
    labels: d.spec.template.metadata.labels,
    spec: d.spec.template.spec,
  }));
}

export function envOf(container: Obj): Map<string, Obj> {
  return new Map((container.env as Obj[]).map((e) => [e.name as string, e]));
}

/** Kubernetes quantities as numbers (cores, bytes), enough to compare requests with limits. */
export function quantity(q: string | number): number {
  if (typeof q === "number") return q;
  const m = /^([0-9.]+)(m|k|Ki|Mi|Gi|Ti|M|G|T)?$/.exec(q);
  if (!m) throw new Error(`not a quantity: ${q}`);
  const factor: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(m[1]) * (m[2] ? factor[m[2]]! : 1);
}

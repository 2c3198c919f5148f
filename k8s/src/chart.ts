/**
 * Loads the chart's files and renders it with helm itself (`helm template`): each override is
 * written to a values file and passed with -f in order, as a user would, and helm's output is
 * split into YAML documents. helm template does not print NOTES.txt, so the chart is rendered
 * from a copy with one more template that includes NOTES.txt into a ConfigMap, taken out of the
 * manifests again; everything else is the chart as it is.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";
import { runHelm } from "./test-support/helm.js";

export const chartDir = fileURLToPath(new URL("../bayad/", import.meta.url));

export type ValuesMap = Record<string, unknown>;

export interface ChartMetadata {
  name: string;
  version: string;
  appVersion: string;
}

export interface Chart {
  dir: string;
  metadata: ChartMetadata;
  defaults: ValuesMap;
  schema: Record<string, unknown>;
}

export interface Manifest {
  /** The template file it came from (helm's "# Source:" comment), e.g. templates/deployment.yaml. */
  source: string;
  object: Record<string, unknown>;
}

export interface Rendered {
  manifests: Manifest[];
  notes: string;
  /** The values helm rendered with: the overrides coalesced over values.yaml. */
  values: ValuesMap;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** Values layered over values.yaml in order, like repeated -f. */
  overrides?: unknown[];
}

/** Reads YAML the way Helm reads values (YAML 1.1, duplicate keys refused). */
export function readYaml(text: string, what: string): unknown {
  try {
    return parse(text, { version: "1.1", uniqueKeys: true, prettyErrors: true, strict: true }) ?? {};
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}`);
  }
}

export function readYamlFile(path: string): unknown {
  return readYaml(readFileSync(path, "utf8"), path);
}

export const isMap = (v: unknown): v is ValuesMap => typeof v === "object" && v !== null && !Array.isArray(v);

export function loadChart(dir = chartDir): Chart {
  const meta = readYamlFile(join(dir, "Chart.yaml")) as Record<string, unknown>;
  const metadata = { name: String(meta.name), version: String(meta.version), appVersion: String(meta.appVersion) };
  const defaults = readYamlFile(join(dir, "values.yaml"));
  if (!isMap(defaults)) throw new Error("values.yaml is not a map");
  const schema = JSON.parse(readFileSync(join(dir, "values.schema.json"), "utf8")) as Record<string, unknown>;
  return { dir, metadata, defaults, schema };
}

/** Helm's coalescing of a values file over the defaults (maps merge, null deletes, anything else replaces). */
export function coalesce(base: ValuesMap, override: ValuesMap): ValuesMap {
  const out: ValuesMap = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = coalesce(out[key], value);
    else out[key] = value;
  }
  return out;
}

export function mergedValues(chart: Chart, overrides: unknown[] = []): ValuesMap {
  return overrides.reduce<ValuesMap>((values, o) => {
    if (!isMap(o)) throw new Error("a values override is not a map");
    return coalesce(values, o);
  }, chart.defaults);
}

/** Writes each override to a values file (JSON is YAML) and calls `use` with their paths. */
export function withValuesFiles<T>(overrides: unknown[], use: (files: string[]) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "bayad-values-"));
  try {
    const files = overrides.map((o, i) => {
      const file = join(dir, `values-${i}.json`);
      writeFileSync(file, JSON.stringify(o));
      return file;
    });
    return use(files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const notesTemplate = "templates/zz-test-notes.yaml";
const notesConfigMap = "bayad-test-notes";
const copies = new Map<string, string>();

/** The chart copied once per process, plus the template that renders NOTES.txt into a ConfigMap. */
function chartWithNotes(chart: Chart): string {
  let copy = copies.get(chart.dir);
  if (!copy) {
    copy = join(mkdtempSync(join(tmpdir(), "bayad-chart-")), chart.metadata.name);
    cpSync(chart.dir, copy, { recursive: true });
    writeFileSync(
      join(copy, notesTemplate),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${notesConfigMap}\ndata:\n  notes: {{ include "${chart.metadata.name}/templates/NOTES.txt" . | quote }}\n`,
    );
    copies.set(chart.dir, copy);
    const made = copy;
    process.once("exit", () => rmSync(join(made, ".."), { recursive: true, force: true }));
  }
  return copy;
}

/** The arguments of `helm template` for the options, with the values files already written. */
export function templateArgs(chart: Chart, options: RenderOptions, files: string[]): string[] {
  return ["template", options.releaseName ?? "bayad", chartWithNotes(chart), "--namespace", options.namespace ?? "default", ...files.flatMap((f) => ["-f", f])];
}

export function renderChart(chart: Chart, options: RenderOptions = {}): Rendered {
  const overrides = options.overrides ?? [];
  const output = withValuesFiles(overrides, (files) => runHelm(templateArgs(chart, options, files)));
  return readRendered(output, mergedValues(chart, overrides));
}

/** helm template's output as manifests and the notes. */
export function readRendered(output: string, values: ValuesMap): Rendered {
  const manifests: Manifest[] = [];
  let notes: string | undefined;
  // helm separates documents with "---" and opens each with "# Source: <chart>/<template>".
  for (const chunk of output.split(/^---[ \t]*$/m)) {
    const source = /^# Source: [^/]+\/(.+)$/m.exec(chunk)?.[1]?.trim() ?? "?";
    for (const doc of parseAllDocuments(chunk, { version: "1.1", uniqueKeys: true, strict: true })) {
      const problems = [...doc.errors, ...doc.warnings];
      if (problems.length > 0) throw new Error(`${source}: ${problems.map((p) => p.message).join("; ")}\n--- rendered:\n${chunk}`);
      const object = doc.toJS() as unknown;
      if (object === null || object === undefined) continue;
      if (!isMap(object)) throw new Error(`${source}: a document helm rendered is not a map`);
      if (source === notesTemplate) notes = String((object.data as ValuesMap).notes);
      else manifests.push({ source, object });
    }
  }
  if (notes === undefined) throw new Error(`no ${notesConfigMap} in helm's output`);
  return { manifests, notes, values };
}

/**
 * Loads the chart and renders it the way `helm template` would for the subset: values files
 * read as YAML 1.1 (as Helm's go-yaml does: on/off/yes/no are booleans) and merged over
 * values.yaml like Helm's coalescing (maps merge, null deletes, anything else replaces), every
 * file under templates/ executed with the same defines, partials (_*) and NOTES.txt kept out of
 * the manifests, and each output split into YAML documents.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments } from "yaml";
import type { Node, ParsedFile } from "./gotemplate/ast.js";
import { Executor } from "./gotemplate/execute.js";
import { functionNames, type FunctionContext } from "./gotemplate/functions.js";
import { parseTemplate } from "./gotemplate/parse.js";
import { GoStruct, isMap, toGoValue, type GoMap, type GoValue } from "./gotemplate/values.js";

export const chartDir = fileURLToPath(new URL("../bayad/", import.meta.url));

export interface ChartMetadata {
  name: string;
  version: string;
  appVersion: string;
}

export interface Chart {
  dir: string;
  metadata: ChartMetadata;
  defaults: GoMap;
  schema: Record<string, unknown>;
  /** Keyed by the path under the chart directory, e.g. templates/deployment.yaml. */
  templates: Map<string, ParsedFile>;
  defines: Map<string, Node[]>;
}

export interface Manifest {
  /** The template file it came from. */
  source: string;
  object: Record<string, unknown>;
}

export interface Rendered {
  manifests: Manifest[];
  notes: string;
  values: GoMap;
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** Values layered over values.yaml in order, like repeated -f. */
  overrides?: unknown[];
  lookup?: FunctionContext["lookup"];
}

/** Reads YAML the way Helm reads values and manifests (YAML 1.1, duplicate keys refused). */
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

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

export function loadChart(dir = chartDir): Chart {
  const meta = readYamlFile(join(dir, "Chart.yaml")) as Record<string, unknown>;
  const metadata = { name: String(meta.name), version: String(meta.version), appVersion: String(meta.appVersion) };
  const templates = new Map<string, ParsedFile>();
  const defines = new Map<string, Node[]>();
  for (const path of listFiles(join(dir, "templates")).sort()) {
    const name = relative(dir, path);
    const parsed = parseTemplate(readFileSync(path, "utf8"), name, functionNames);
    templates.set(name, parsed);
    for (const [define, body] of parsed.defines) {
      if (defines.has(define)) throw new Error(`${name}: template "${define}" is defined twice`);
      defines.set(define, body);
    }
  }
  const defaults = toGoValue(readYamlFile(join(dir, "values.yaml")));
  if (!isMap(defaults)) throw new Error("values.yaml is not a map");
  const schema = JSON.parse(readFileSync(join(dir, "values.schema.json"), "utf8")) as Record<string, unknown>;
  return { dir, metadata, defaults, schema, templates, defines };
}

/** Helm's coalescing of a values file over the defaults. */
export function coalesce(base: GoMap, override: GoMap): GoMap {
  const out: GoMap = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key] ?? null)) out[key] = coalesce(out[key] as GoMap, value);
    else out[key] = value;
  }
  return out;
}

export function mergedValues(chart: Chart, overrides: unknown[] = []): GoMap {
  return overrides.reduce<GoMap>((values, o) => {
    const v = toGoValue(o);
    if (!isMap(v)) throw new Error("a values override is not a map");
    return coalesce(values, v);
  }, chart.defaults);
}

export function renderChart(chart: Chart, options: RenderOptions = {}): Rendered {
  const values = mergedValues(chart, options.overrides);
  const releaseName = options.releaseName ?? "bayad";
  const namespace = options.namespace ?? "default";
  const executor = new Executor(chart.defines, options.lookup ? { lookup: options.lookup } : {});
  const manifests: Manifest[] = [];
  let notes = "";
  for (const [name, parsed] of chart.templates) {
    const root: GoValue = new GoStruct("chartutil.Values", {
      Values: values,
      Release: new GoStruct("Release", { Name: releaseName, Namespace: namespace, Service: "Helm", IsInstall: true, IsUpgrade: false, Revision: 1n }),
      Chart: new GoStruct("chart.Metadata", { Name: chart.metadata.name, Version: chart.metadata.version, AppVersion: chart.metadata.appVersion }),
      Template: new GoStruct("Template", { Name: `${chart.metadata.name}/${name}`, BasePath: `${chart.metadata.name}/templates` }),
    });
    const output = executor.execute(parsed.body, root);
    const base = name.split("/").pop()!;
    if (base === "NOTES.txt") {
      notes = output;
      continue;
    }
    if (base.startsWith("_")) continue;
    for (const doc of parseAllDocuments(output, { version: "1.1", uniqueKeys: true, strict: true })) {
      const problems = [...doc.errors, ...doc.warnings];
      if (problems.length > 0) throw new Error(`${name}: ${problems.map((p) => p.message).join("; ")}\n--- rendered:\n${output}`);
      const object = doc.toJS() as unknown;
      if (object === null || object === undefined) continue;
      if (typeof object !== "object" || Array.isArray(object)) throw new Error(`${name}: a document is not a map`);
      manifests.push({ source: name, object: object as Record<string, unknown> });
    }
  }
  return { manifests, notes, values };
}

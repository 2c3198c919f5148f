/**
 * Checks rendered objects against the Kubernetes API's OpenAPI schemas, in two ways, both from
 * kubernetes-models (generated from the Kubernetes OpenAPI document):
 *  - validate(): its ajv validators check types, required fields and formats, but not unknown
 *    fields (the OpenAPI document does not forbid them);
 *  - the TypeScript interfaces: every object is type-checked as an object literal, so a field the
 *    API does not know (a typo such as `readinesProbe`, a field at the wrong level) is an excess
 *    property error, as `kubectl --validate=strict` or helm's own schema check would report it.
 */
import { join } from "node:path";
import ts from "typescript";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Secret } from "kubernetes-models/v1/Secret";
import { Service } from "kubernetes-models/v1/Service";
import { chartDir } from "./chart.js";

interface Kind {
  validate(data: Record<string, unknown>): void;
  /** The module and interface of its TypeScript type. */
  type: [string, string];
}

const model =
  <T extends { validate(): void }>(C: new (data: never) => T) =>
  (data: Record<string, unknown>) =>
    new C(data as never).validate();

/** The kinds the chart may render; any other is refused. */
export const kinds: Readonly<Record<string, Kind>> = {
  "apps/v1/Deployment": { validate: model(Deployment), type: ["kubernetes-models/apps/v1/Deployment", "IDeployment"] },
  "v1/Service": { validate: model(Service), type: ["kubernetes-models/v1/Service", "IService"] },
  "v1/Secret": { validate: model(Secret), type: ["kubernetes-models/v1/Secret", "ISecret"] },
  "v1/ConfigMap": { validate: model(ConfigMap), type: ["kubernetes-models/v1/ConfigMap", "IConfigMap"] },
  "autoscaling/v2/HorizontalPodAutoscaler": {
    validate: model(HorizontalPodAutoscaler),
    type: ["kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler", "IHorizontalPodAutoscaler"],
  },
  "policy/v1/PodDisruptionBudget": { validate: model(PodDisruptionBudget), type: ["kubernetes-models/policy/v1/PodDisruptionBudget", "IPodDisruptionBudget"] },
  "networking.k8s.io/v1/NetworkPolicy": { validate: model(NetworkPolicy), type: ["kubernetes-models/networking.k8s.io/v1/NetworkPolicy", "INetworkPolicy"] },
  "networking.k8s.io/v1/Ingress": { validate: model(Ingress), type: ["kubernetes-models/networking.k8s.io/v1/Ingress", "IIngress"] },
};

export function kindKey(object: Record<string, unknown>): string {
  return `${String(object.apiVersion)}/${String(object.kind)}`;
}

export interface Labelled {
  label: string;
  object: Record<string, unknown>;
}

/** Errors of validate() for each object; an unknown kind is an error too. */
export function validateObjects(objects: Labelled[]): string[] {
  const errors: string[] = [];
  for (const { label, object } of objects) {
    const kind = kinds[kindKey(object)];
    if (!kind) {
      errors.push(`${label}: ${kindKey(object)} is not a kind this chart may render`);
      continue;
    }
    try {
      kind.validate(object);
    } catch (error) {
      errors.push(`${label}: ${(error as Error).message}`);
    }
  }
  return errors;
}

/** Type-checks every object against its kind's interface in one in-memory program. */
export function typeCheckObjects(objects: Labelled[]): string[] {
  const file = join(chartDir, "..", "src", "__rendered-objects__.ts");
  const imports = new Map<string, string>();
  const starts: { line: number; label: string }[] = [];
  const body: string[] = [];
  let line = 0;
  for (const [i, { label, object }] of objects.entries()) {
    const kind = kinds[kindKey(object)];
    if (!kind) continue;
    const [module, name] = kind.type;
    const alias = `T${imports.size}`;
    if (!imports.has(module)) imports.set(module, `import type { ${name} as ${alias} } from "${module}";`);
    const typeAlias = /as (T\d+)/.exec(imports.get(module)!)![1];
    const text = `export const object${i}: ${typeAlias} = ${JSON.stringify(object, null, 2)};`;
    starts.push({ line, label });
    body.push(text);
    line += text.split("\n").length;
  }
  const header = [...imports.values()];
  const source = [...header, ...body].join("\n");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    lib: ["lib.es2022.d.ts"],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram({ rootNames: [file], options, host });
  const sourceFile = program.getSourceFile(file)!;
  const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
  return diagnostics.map((d) => {
    const at = d.start === undefined ? 0 : sourceFile.getLineAndCharacterOfPosition(d.start).line - header.length;
    const owner = [...starts].reverse().find((s) => s.line <= at);
    const text = d.start === undefined ? "" : source.split("\n")[at + header.length].trim();
    return `${owner?.label ?? "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")} (at: ${text})`;
  });
}

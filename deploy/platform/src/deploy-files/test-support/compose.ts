/**
 * deploy/compose.yaml as Compose reads it: YAML with anchors and `<<` merged (the yaml package),
 * variables interpolated, then checked against the Compose Specification's JSON schema
 * (../compose-spec.json, see ../README.md) with Ajv, as Compose checks it before it runs anything.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject } from "ajv";
import { parse } from "yaml";
import { readRepoFile } from "./conventions.js";

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, unknown>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test: string[] | string; disable?: boolean };
  ports?: Array<string | { target: number; published?: string | number; host_ip?: string }>;
  volumes?: Array<string | { source?: string; target: string }>;
  tmpfs?: string[] | string;
  read_only?: boolean;
  user?: string;
  privileged?: boolean;
  cap_add?: string[];
  network_mode?: string;
  pid?: string;
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const schema = JSON.parse(readFileSync(new URL("../compose-spec.json", import.meta.url), "utf8")) as { $schema: string };
const draft07 = createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-07.json") as { $id: string };
const ajv = new Ajv({ allErrors: true, strictTypes: false });
// The schema names draft-07 by its https address; Ajv knows the meta-schema by its http one.
ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
// strictTypes off: the schema leaves `type` out beside some object keywords, which is valid
// draft-07; every other strict check (unknown keywords, the schema's own validity) stays on.
const validate = ajv.compile(schema);

/** The schema's complaints about a parsed compose file, as "path: message" lines (none when valid). */
export function schemaErrors(document: unknown): string[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || "/"}: ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`);
}

/**
 * Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $VAR, $$.
 * (No JavaScript library implements Compose's rules; they are the spec's, this is their table.)
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_whole, dollar, name, op, arg, bare) => {
    if (dollar === "$") return "$";
    if (bare) return env[bare] ?? "";
    const value = env[name as string];
    const unset = op?.startsWith(":") ? value === undefined || value === "" : value === undefined;
    if (op?.endsWith("-")) return unset ? (arg as string) : value!;
    if (op?.endsWith("?")) {
      if (unset) throw new Error(`${name as string} is required: ${arg as string}`);
      return value!;
    }
    return value ?? "";
  });
}

function interpolateDeep(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === "string") return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateDeep(item, env));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateDeep(item, env)]));
  }
  return value;
}

/** A compose file (deploy/compose.yaml by default) as parsed, anchors and `<<` merged, before interpolation. */
export const parseComposeFile = (file = "deploy/compose.yaml"): unknown => parse(readRepoFile(file), { merge: true });

/**
 * A compose file (deploy/compose.yaml by default) as Compose sees it with `env` in the shell (nothing set by default):
 * merged, interpolated, and valid by the Compose Specification's schema, or this throws.
 */
export function loadCompose(env: Record<string, string | undefined> = {}, file = "deploy/compose.yaml"): ComposeFile {
  const document = interpolateDeep(parseComposeFile(file), env);
  const errors = schemaErrors(document);
  if (errors.length > 0) throw new Error(`${file} breaks the Compose Specification:\n${errors.join("\n")}`);
  return document as ComposeFile;
}

/** A service's environment as strings (the mapping form, which this compose file uses). */
export function environmentOf(service: ComposeService): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value)]));
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, "service_started"]));
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition ?? "service_started"]));
}

/** Compose durations (Go's: 30s, 1m30s, 1500ms), in milliseconds. */
export function durationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001 };
  let total = 0;
  const rest = text.replace(/(\d+(?:\.\d+)?)(ms|us|h|m|s)/g, (_, amount: string, unit: string) => {
    total += Number(amount) * units[unit]!;
    return "";
  });
  if (rest !== "") throw new Error(`not a duration: ${text}`);
  return total;
}

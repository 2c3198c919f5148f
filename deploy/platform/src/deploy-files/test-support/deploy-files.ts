/**
 * Readers for the deployment files (deploy/Dockerfile, .dockerignore, deploy/compose.yaml,
 * deploy/env/*.example), small enough to trust: no Docker engine is needed to check them.
 * Kept under test-support/ so tsc leaves it out of dist/ (and out of the image).
 */
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { ComponentName, ServiceName } from "../../services-mode/components.js";

export const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));
export const readRepoFile = (path: string) => readFileSync(join(repoRoot, path), "utf8");

// ---------------------------------------------------------------- the integrator's conventions

/** The components and services as the launcher knows them, so a new one is checked here too. */
export { componentNames as components, serviceNames as services } from "../../services-mode/components.js";
export type Component = ComponentName;

const serviceCommon = ["HOST", "PORT", "METRICS_PORT", "MONGODB_URI", "MONGODB_DATABASE", "LOG_LEVEL", "SHUTDOWN_GRACE_MS"];

/** What each component must be given in a container (the integrator's list). */
export const requiredEnv: Record<Component, string[]> = {
  gateway: [
    "HOST", "PORT", "METRICS_PORT", "ADMIN_API_KEY", "GATEWAY_SECRET", "PUBLIC_URL",
    "PAYMENTS_URL", "BILLING_URL", "LINKS_URL", "RECORDS_URL", "OTP_URL", "WEBHOOKS_URL",
    "MONGODB_URI", "DEV_TOKEN_ISSUER", "LOG_LEVEL", "SHUTDOWN_GRACE_MS",
  ],
  payments: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PUBLIC_URL"],
  billing: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PAYMENTS_URL"],
  links: [...serviceCommon, "NATS_URL", "SANDBOX_SECRET", "SECRETS_KEY", "PAYMENTS_URL"],
  records: [...serviceCommon, "NATS_URL", "RECORDS_CURSOR_SECRET"],
  otp: [...serviceCommon, "OTP_HASH_SECRET", "OTP_EMAIL_SENDER", "OTP_SMS_SENDER"],
  webhooks: [...serviceCommon, "NATS_URL", "SECRETS_KEY", "PUBLIC_URL"],
};

/** Secrets: their compose defaults must say development-only, their examples CHANGE-ME. */
export const secretVariables = ["ADMIN_API_KEY", "GATEWAY_SECRET", "SANDBOX_SECRET", "SECRETS_KEY", "RECORDS_CURSOR_SECRET", "OTP_HASH_SECRET", "SMTP_PASS", "SEMAPHORE_API_KEY"];

/** The gateway variable that addresses each service. */
export const serviceUrlVariable: Record<ServiceName, string> = {
  payments: "PAYMENTS_URL",
  billing: "BILLING_URL",
  links: "LINKS_URL",
  records: "RECORDS_URL",
  otp: "OTP_URL",
  webhooks: "WEBHOOKS_URL",
};

// ---------------------------------------------------------------- workspaces

/** The root package.json's workspaces, globs expanded to the folders holding a package.json. */
export function workspaceFolders(): string[] {
  const { workspaces } = JSON.parse(readRepoFile("package.json")) as { workspaces: string[] };
  return workspaces.flatMap((entry) => {
    if (!entry.endsWith("/*")) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(repoRoot, parent), { withFileTypes: true })
      .filter((dirent) => dirent.isDirectory() && existsSync(join(repoRoot, parent, dirent.name, "package.json")))
      .map((dirent) => `${parent}/${dirent.name}`);
  });
}

// ---------------------------------------------------------------- Dockerfile

export interface Instruction {
  keyword: string;
  /** Flags such as --from=build or --mount=…, in order. */
  flags: string[];
  /** The arguments after the flags: the JSON array's items, or the words of the shell form. */
  args: string[];
  /** The text after the keyword, continuations joined. */
  raw: string;
  line: number;
}

export interface Stage {
  index: number;
  name?: string;
  /** The FROM image, or an earlier stage's name. */
  base: string;
  instructions: Instruction[];
}

/** Splits a Dockerfile into instructions (joining `\` continuations, skipping comments) and stages. */
export function parseDockerfile(text: string): { stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!.trim();
    if (first === "" || first.startsWith("#")) continue;
    const start = i + 1;
    let joined = first;
    while (joined.endsWith("\\") && i + 1 < lines.length) {
      joined = joined.slice(0, -1);
      const next = lines[++i]!.trim();
      // Docker drops comment lines inside a continued instruction.
      if (!next.startsWith("#")) joined += ` ${next}`;
    }
    const match = /^(\S+)\s*(.*)$/s.exec(joined)!;
    const raw = match[2]!.trim();
    const words = raw.startsWith("[") ? [] : raw.split(/\s+/).filter(Boolean);
    const flags: string[] = [];
    while (words[0]?.startsWith("--")) flags.push(words.shift()!);
    let args = words;
    if (raw.startsWith("[")) args = JSON.parse(raw) as string[];
    instructions.push({ keyword: match[1]!.toUpperCase(), flags, args, raw, line: start });
  }
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const [base, as, name] = instruction.args;
      stages.push({ index: stages.length, base: base!, name: as?.toUpperCase() === "AS" ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { stages };
}

export const flagValue = (instruction: Instruction, flag: string) =>
  instruction.flags.find((f) => f.startsWith(`--${flag}=`))?.slice(flag.length + 3);

/** ENV and LABEL in both `KEY=value …` and legacy `KEY value` forms (values may be quoted). */
export function keyValues(instruction: Instruction): Record<string, string> {
  const result: Record<string, string> = {};
  const pattern = /([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|\S+)/g;
  if (!instruction.raw.includes("=")) {
    const [key, ...rest] = instruction.raw.split(/\s+/);
    result[key!] = rest.join(" ");
    return result;
  }
  for (const m of instruction.raw.matchAll(pattern)) {
    result[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
  }
  return result;
}

// ---------------------------------------------------------------- .dockerignore

/**
 * Docker's matching: patterns anchored at the context root, `*` and `?` within one path segment,
 * `**` across any number of segments, `!` re-includes, the last matching pattern wins, and a
 * pattern that matches a folder excludes everything in it.
 */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const include = line.startsWith("!");
      const pattern = (include ? line.slice(1) : line).trim().replace(/^\/+/, "").replace(/\/+$/, "");
      let source = "";
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i]!;
        if (pattern.startsWith("**/", i)) {
          source += "(?:.*/)?";
          i += 2;
        } else if (pattern.startsWith("**", i)) {
          source += ".*";
          i += 1;
        } else if (c === "*") source += "[^/]*";
        else if (c === "?") source += "[^/]";
        else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
      }
      return { include, regex: new RegExp(`^${source}$`) };
    });
  return (path: string) => {
    const parts = path.replace(/^\/+/, "").replace(/\/+$/, "").split("/");
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
    let excluded = false;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regex.test(prefix))) excluded = !rule.include;
    }
    return excluded;
  };
}

// ---------------------------------------------------------------- compose

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

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $VAR, $$. */
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

/** deploy/compose.yaml as Compose sees it with nothing set in the shell: anchors and `<<` merged, defaults filled. */
export function loadCompose(env: Record<string, string | undefined> = {}): ComposeFile {
  return interpolateDeep(parse(readRepoFile("deploy/compose.yaml"), { merge: true }), env) as ComposeFile;
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

/** Compose durations such as 30s, 1m30s, 1500ms, in milliseconds. */
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

// ---------------------------------------------------------------- env files

/** KEY=value lines as `docker run --env-file` reads them: no quotes, no interpolation. */
export function parseEnvFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const at = trimmed.indexOf("=");
    if (at <= 0) throw new Error(`not KEY=value: ${line}`);
    result[trimmed.slice(0, at)] = trimmed.slice(at + 1);
  }
  return result;
}

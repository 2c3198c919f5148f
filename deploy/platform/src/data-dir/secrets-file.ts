import { readFile } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import { ConfigError } from "@bayad/kit";
import { reason } from "./data-dir-lock.js";
import { isSecretName, type SecretName } from "./generated-secrets.js";

/** DATA_DIR/secrets.json: what a launcher generated and must find again after a restart. */
export const secretsFileName = "secrets.json";

/** The launcher's default project, made on the first start, and its test-mode API key (a development convenience). */
export interface DefaultProject {
  projectId: string;
  testApiKey: string;
}

export interface KeptSecrets {
  /** Values drawn for variables left unset (ADMIN_API_KEY, GATEWAY_SECRET, …). */
  secrets: Partial<Record<SecretName, string>>;
  defaultProject?: DefaultProject;
}

/** Shorter than anything generated: a value this short was not written by Bayad. */
const minSecretLength = 16;

/** The kept secrets; none when the file does not exist yet. A file that cannot be read or used stops the start, naming it. */
export async function readSecretsFile(file: string): Promise<KeptSecrets> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { secrets: {} };
    throw corrupt(file, `cannot be read (${reason(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return checked(file, parsed);
}

/** Replaces the file whole (a temporary file renamed over it), readable by its owner only. */
export async function writeSecretsFile(file: string, kept: KeptSecrets): Promise<void> {
  try {
    await writeFileAtomic(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
  } catch (error) {
    throw new ConfigError("DATA_DIR", `${file} cannot be written (${reason(error)})`);
  }
}

function checked(file: string, parsed: unknown): KeptSecrets {
  if (!isObject(parsed)) throw corrupt(file, "does not hold a JSON object");
  const secrets: KeptSecrets["secrets"] = {};
  const given = parsed.secrets ?? {};
  if (!isObject(given)) throw corrupt(file, `"secrets" is not an object`);
  for (const [name, value] of Object.entries(given)) {
    // A name this version does not generate is left alone (and dropped at the next write).
    if (!isSecretName(name)) continue;
    if (typeof value !== "string" || value.length < minSecretLength) throw corrupt(file, `"secrets.${name}" is not a string of at least ${minSecretLength} characters`);
    secrets[name] = value;
  }
  const project = parsed.defaultProject;
  if (project === undefined) return { secrets };
  if (!isObject(project) || typeof project.projectId !== "string" || typeof project.testApiKey !== "string") {
    throw corrupt(file, `"defaultProject" needs a projectId and a testApiKey`);
  }
  return { secrets, defaultProject: { projectId: project.projectId, testApiKey: project.testApiKey } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function corrupt(file: string, problem: string): ConfigError {
  return new ConfigError("DATA_DIR", `${file} ${problem}: fix it, or delete it to have new secrets generated`);
}

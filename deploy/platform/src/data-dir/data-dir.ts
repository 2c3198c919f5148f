import { mkdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigError, envString, type Env, type Logger } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { lockDataDir, reason, takeOverMessage } from "./data-dir-lock.js";
import { generatedSecrets, unsetSecrets, type SecretName } from "./generated-secrets.js";
import { readSecretsFile, secretsFileName, writeSecretsFile, type DefaultProject, type KeptSecrets } from "./secrets-file.js";

/** DATA_DIR's default, under the directory the process runs in (`npm start`: the repository's root). */
export const defaultDataDir = ".bayad";

/** DATA_DIR as an absolute path. */
export function dataDirFromEnv(env: Env, cwd = process.cwd()): string {
  return resolve(cwd, envString(env, "DATA_DIR", defaultDataDir));
}

/** Where a component's embedded store lives in a DATA_DIR that holds several (`npm start`). */
export function componentStorePath(dataDir: string, component: string): string {
  return join(dataDir, component);
}

/**
 * A DATA_DIR held by this process: where everything a launcher must find again after a restart
 * lives. Layout: `secrets.json` (the values drawn for unset secret variables, the default project
 * and its test key; mode 0600), `bayad.pid` (the process that holds it), and the stores of the
 * components given to `openDataDir`, each in a directory named after it.
 */
export interface DataDir {
  readonly path: string;
  /** The values of `names` that `env` leaves unset: kept ones, and for the others values drawn now and kept. */
  secretsFor(names: readonly SecretName[], env: Env): Promise<Env>;
  /** The default project kept by an earlier start, if any. */
  readonly defaultProject: DefaultProject | undefined;
  keepDefaultProject(project: DefaultProject): Promise<void>;
  /** Lets another process have the directory (the stores must be closed first). */
  close(): Promise<void>;
}

/**
 * Creates (mode 0700) and takes `path` for this process, with a directory for each of
 * `components`' stores. A DATA_DIR that cannot be used (not a directory, not writable, a
 * secrets file that is not valid JSON, another process holding it) throws a ConfigError: one line
 * naming it. A holder still there when it was taken over (a process that was exiting, waited
 * for; a zombie) is reported to `logger`.
 */
export async function openDataDir(path: string, components: readonly string[] = [], logger?: Logger): Promise<DataDir> {
  await makeDirectory(path);
  const lock = await lockDataDir(path);
  const { takenOver } = lock;
  if (takenOver) {
    // Waiting delayed the start: a warning, so the line shows at npm start's default level.
    const level = takenOver.sign === "SIGKILL pending" ? "warn" : "info";
    logger?.[level]({ dataDir: path, holder: takenOver }, takeOverMessage(path, takenOver));
  }
  try {
    const file = join(path, secretsFileName);
    const kept: KeptSecrets = await readSecretsFile(file);
    for (const component of components) await makeDirectory(componentStorePath(path, component));
    return {
      path,
      async secretsFor(names, env) {
        const missing = unsetSecrets(names, env).filter((name) => kept.secrets[name] === undefined);
        for (const name of missing) kept.secrets[name] = generatedSecrets[name]();
        if (missing.length > 0) await writeSecretsFile(file, kept);
        return Object.fromEntries(unsetSecrets(names, env).map((name) => [name, kept.secrets[name]!]));
      },
      get defaultProject() {
        return kept.defaultProject;
      },
      async keepDefaultProject(project) {
        kept.defaultProject = project;
        await writeSecretsFile(file, kept);
      },
      close: () => lock.release(),
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * An embedded store kept in `path` (durable), or without one in a temporary directory removed
 * when it closes (tests). A store that cannot be opened there stops the start, naming it.
 */
export function openEmbeddedStore(path: string | undefined): Store {
  if (path === undefined) return createEmbeddedStore();
  try {
    return createEmbeddedStore({ path });
  } catch (error) {
    throw new ConfigError("DATA_DIR", `${path} cannot be opened as a store (${reason(error)})`);
  }
}

async function makeDirectory(path: string): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing && !existing.isDirectory()) throw new ConfigError("DATA_DIR", `${path} is not a directory`);
  try {
    await mkdir(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError("DATA_DIR", `${path} cannot be created (${reason(error)})`);
  }
}

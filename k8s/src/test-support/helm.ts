/**
 * The real helm binary, for the chart's tests: vitest's global setup (helm-setup.ts) fetches it
 * into the user's cache before the suites run (see helm-fetch.ts for where it comes from).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { inject, it } from "vitest";
import { cachedHelmPath } from "./helm-fetch.js";

/** Why helm cannot run on this machine, or undefined when it can. */
export function helmMissing(): string | undefined {
  const missing = inject("helmMissing");
  if (missing) return missing;
  if (!existsSync(helm())) return `${helm()} is missing (the global setup in k8s/vitest.config.ts fetches it)`;
  return undefined;
}

/** The path of the fetched helm. */
export function helm(): string {
  return cachedHelmPath();
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

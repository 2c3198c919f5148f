/**
 * Vitest's global setup for the chart's suites: fetches helm once, before any test file runs
 * (test files run in parallel workers), and hands every file the reason helm is missing, if it is.
 */
import type { TestProject } from "vitest/node";
import { fetchHelm, helmUnsupported } from "./helm-fetch.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Why helm cannot run here; empty when it can. */
    helmMissing: string;
  }
}

export default async function fetchHelmOnce(project: TestProject): Promise<void> {
  const missing = helmUnsupported() ?? (await fetchHelm().then(() => "", (error: unknown) => `could not fetch helm: ${(error as Error).message}`));
  // The default reporter lists a skipped file without its tests' titles, which name the reason.
  if (missing) console.warn(`The chart's suites need helm and skip (fail with CI set): ${missing}`);
  project.provide("helmMissing", missing);
}

/**
 * Every value of values.yaml is read by some template: changed on its own, in at least one of
 * the scenarios, it changes what helm renders (or stops the render). A value no template reads is
 * a setting that silently does nothing. The schema check is skipped for these renders, since a
 * changed value need not be a valid one for the question "does any template look at it?".
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { isMap, loadChart, mergedValues, templateArgs } from "./chart.js";
import { helm, helmAvailable } from "./test-support/helm.js";
import { scenarios, type Scenario } from "./test-support/scenarios.js";

const chart = loadChart();
type Path = (string | number)[];

/** Every leaf of a values tree (a scalar, an empty map or list), with list indices. */
function leaves(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.length === 0 ? [at] : value.flatMap((v, i) => leaves(v, [...at, i]));
  if (isMap(value)) return Object.keys(value).length === 0 ? [at] : Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]));
  return [at];
}

/** Some other value of the same kind. */
function changed(value: unknown): unknown {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  if (typeof value === "string") return `${value}x`;
  if (Array.isArray(value)) return ["x"];
  if (isMap(value)) return { x: "x" };
  return "x";
}

/** The values with the leaf at `path` changed, or undefined when they do not hold the path. */
function withChange(values: unknown, path: Path): unknown {
  if (path.length === 0) return changed(values);
  const [key, ...rest] = path;
  if (Array.isArray(values) && typeof key === "number" && key < values.length) {
    const inner = withChange(values[key], rest);
    return inner === undefined ? undefined : values.map((v, i) => (i === key ? inner : v));
  }
  if (isMap(values) && typeof key === "string" && Object.hasOwn(values, key)) {
    const inner = withChange(values[key], rest);
    return inner === undefined ? undefined : { ...values, [key]: inner };
  }
  return undefined;
}

const run = promisify(execFile);

/** What helm renders for the values, with the keys the chart generates at random masked; an error's message when it stops. */
async function render(scenario: Scenario, values: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "bayad-values-"));
  try {
    const file = join(dir, "values.json");
    await writeFile(file, JSON.stringify(values));
    const args = [...templateArgs(chart, scenario, [file]), "--skip-schema-validation"];
    const { stdout } = await run(helm(), args, { maxBuffer: 64 * 1024 * 1024 });
    return withoutGenerated(stdout);
  } catch (error) {
    return `error: ${(error as { stderr?: string }).stderr ?? String(error)}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const generated = /^(adm_[A-Za-z0-9]{32}|[A-Za-z0-9]{48})$/;
/** The output with the Secret's values that the chart generated at random (they differ on every render) masked. */
function withoutGenerated(output: string): string {
  return output.replace(/"([A-Za-z0-9+/]{40,}=*)"/g, (quoted, b64: string) => (generated.test(Buffer.from(b64, "base64").toString("utf8")) ? '"generated"' : quoted));
}

/** Runs the tasks at most `limit` at a time. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

if (helmAvailable("the values read")) {
  it("are all read by some template: changing any one changes what helm renders", async () => {
    // "everything on" first: it renders the most branches, so most values are found read at once.
    const ordered = [...scenarios].sort((a, b) => Number(b.name === "everything on") - Number(a.name === "everything on"));
    const merged = ordered.map((s) => ({ scenario: s, values: mergedValues(chart, s.overrides) }));
    const baselines = await pool(merged.map(({ scenario, values }) => () => render(scenario, values)), 4);
    expect(baselines.filter((b) => b.startsWith("error:"))).toEqual([]);
    const isRead = async (path: Path, extra: Record<string, unknown> = {}) => {
      for (const [i, { scenario, values }] of merged.entries()) {
        const changedValues = withChange({ ...values, ...extra }, path);
        if (changedValues !== undefined && (await render(scenario, changedValues)) !== baselines[i]) return true;
      }
      return false;
    };
    const paths = leaves(chart.defaults);
    const read = await pool(paths.map((p) => () => isRead(p)), Math.max(2, availableParallelism()));
    expect(paths.filter((_, i) => !read[i]).map((p) => p.join("."))).toEqual([]);
    // The check is not vacuous: a value added for no template to read is found unread.
    expect(await isRead(["unreadSetting", "level"], { unreadSetting: { level: "a" } })).toBe(false);
  }, 120_000);
}

import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { documentUrl } from "./document.js";

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const config = join(packageRoot, "redocly.yaml");
// Redocly CLI is one bundled script with no stable Node API of its own: run its binary.
const cli = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin/cli.js");

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: Array<{ pointer?: string; start?: { line: number; col: number } }>;
}

/** Every problem `redocly lint` reports for a file under the gateway's redocly.yaml. */
async function lint(file: string): Promise<LintProblem[]> {
  const { stdout } = await run(process.execPath, [cli, "lint", file, "--config", config, "--format", "json"], {
    cwd: packageRoot,
    // No usage reports or update checks: the lint runs on closed networks too.
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", REDOCLY_SUPPRESS_NOTIFICATIONS: "true" },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    // It exits 1 when it finds errors; its report is still on stdout.
    if (!error.stdout) throw error;
    return { stdout: error.stdout };
  });
  return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
}

const describeProblem = (p: LintProblem) =>
  `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.start ? `line ${l.start.line}` : l.pointer).join(", ")}: ${p.message}`;

describe("OpenAPI lint (Redocly's recommended ruleset, redocly.yaml)", () => {
  const scratch = mkdtemp(join(tmpdir(), "bayad-openapi-lint-"));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it("finds no problem in gateway/openapi/openapi.yaml: no error and no warning", async () => {
    const problems = await lint(fileURLToPath(documentUrl));
    expect(problems.map(describeProblem)).toEqual([]);
  }, 60_000);

  it("reports what the ruleset forbids, so a clean result means the rules ran", async () => {
    const file = join(await scratch, "broken.yaml");
    await writeFile(
      file,
      [
        "openapi: 3.1.0",
        "info: {title: Broken, version: 1.0.0}",
        "servers: [{url: 'https://api.example.ph'}]",
        "paths:",
        "  /things:",
        "    get:",
        "      summary: No operationId and no security",
        "      responses:",
        "        '200':",
        "          description: OK",
        "          content:",
        "            application/json:",
        "              schema: {type: integer, minimum: 1, examples: [0]}",
        "",
      ].join("\n"),
    );
    const problems = await lint(file);
    const rules = problems.map((p) => `${p.severity} ${p.ruleId}`);
    expect(rules).toEqual(
      expect.arrayContaining(["error security-defined", "warn operation-operationId", "error no-invalid-schema-examples"]),
    );
  }, 60_000);
});

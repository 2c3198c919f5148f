import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readRepoFile, repoRoot } from "./test-support/conventions.js";
import { copyFrom, copySources, dockerfileStages, ignoredBy, keywordOf } from "./test-support/dockerfile.js";

// The build context is the repository root, so Docker reads .dockerignore from there (not from deploy/).
// Matched by @balena/dockerignore, which follows Docker's rules.
const isIgnored = ignoredBy(readRepoFile(".dockerignore"));

/** Every file git would commit here: tracked, plus new files it does not ignore. */
function sourceFiles(): string[] | undefined {
  if (!existsSync(join(repoRoot, ".git"))) return undefined;
  const output = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" });
  return output.split("\n").filter((path) => path !== "" && existsSync(join(repoRoot, path)));
}

describe(".dockerignore (at the repository root, the build context)", () => {
  it("matches like Docker: anchored at the root, ** across folders, ! re-including, folders taking their contents", () => {
    const match = ignoredBy("**/node_modules\nbuild\n*.md\n!README.md\n");
    expect(match("node_modules")).toBe(true);
    expect(match("libs/kit/node_modules/pino/index.js")).toBe(true);
    expect(match("build/x")).toBe(true);
    expect(match("libs/build")).toBe(false);
    expect(match("CHANGES.md")).toBe(true);
    expect(match("README.md")).toBe(false);
    expect(match("docs/CHANGES.md")).toBe(false);
  });

  it("keeps host installs, build output, VCS data, test leftovers, secrets and local data out of the context", () => {
    for (const path of [
      "node_modules/yaml/package.json",
      "deploy/platform/node_modules/.vite/results.json",
      "gateway/dist/app.js",
      "libs/kit/dist/index.js",
      ".turbo/cache/x",
      "libs/kit/.turbo/turbo-build.log",
      ".git/HEAD",
      "deploy/platform/test-results/shot.png",
      "coverage/index.html",
      "libs/proto/coverage/lcov.info",
      "libs/proto/src/gen/bayad/payments/v1/payments_pb.ts",
      "npm-debug.log",
      "services/otp/debug.log",
      ".env",
      "deploy/.env",
      "services/otp/.env.local",
      ".npmrc",
      ".bayad/secrets.json",
      ".bayad/payments/data.mdb",
      "deploy/platform/.bayad/secrets.json",
    ]) {
      expect(isIgnored(path), path).toBe(true);
    }
  });

  it("lets through every source file under what the Dockerfile copies from the context", () => {
    const sources = dockerfileStages()
      .flatMap((stage) => stage.instructions)
      .filter((i) => keywordOf(i) === "COPY" && copyFrom(i) === undefined)
      .flatMap((copy) => copySources(copy).map((source) => source.replace(/\/$/, "")));
    const files = sourceFiles() ?? sources.filter((source) => !source.includes("*"));
    const needed = files.filter((file) => sources.some((source) => file === source || file.startsWith(`${source}/`)));
    expect(needed.length).toBeGreaterThan(20);
    expect(needed.filter(isIgnored), "source files the build would not see").toEqual([]);
    for (const path of ["proto/buf.gen.yaml", "gateway/openapi/openapi.yaml", "libs/kit/src/index.ts", "deploy/platform/tsconfig.json"]) {
      expect(isIgnored(path), path).toBe(false);
    }
  });
});

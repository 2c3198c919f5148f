import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Instruction } from "dockerfile-ast";
import { readRepoFile, repoRoot, workspaceFolders } from "./test-support/conventions.js";
import {
  argumentsOf,
  copyFrom,
  copySources,
  dockerfileStages,
  ignoredBy,
  keywordOf,
  lineOf,
  propertiesOf,
  type Stage,
} from "./test-support/dockerfile.js";

// Static checks of deploy/Dockerfile, parsed by dockerfile-ast: no image is built here (there is no Docker engine).
const stages = dockerfileStages();
const isIgnored = ignoredBy(readRepoFile(".dockerignore"));
const stageNamed = (name: string) => stages.find((stage) => stage.name === name);
const runtime = stages.at(-1)!;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => keywordOf(i) === keyword);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1);
const firstArgument = (instruction: Instruction | undefined) => (instruction ? argumentsOf(instruction)[0] : undefined);

/** A stage and the stages it is FROM, nearest first. */
function lineage(stage: Stage): Stage[] {
  const parent = stageNamed(stage.base);
  return parent && parent.index < stage.index ? [stage, ...lineage(parent)] : [stage];
}
const copiesFromContext = stages.flatMap((stage) => all(stage, "COPY").filter((copy) => copyFrom(copy) === undefined));
const commands = (stage: Stage) => lineage(stage).flatMap((s) => all(s, "RUN").map((run) => argumentsOf(run).join(" ")));
const installs = (stage: Stage) => commands(stage).filter((command) => /\bnpm (ci|install|i)\b/.test(command));

describe("deploy/Dockerfile", () => {
  it("is multi-stage, every stage named once, every COPY --from naming an earlier stage", () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    const names = stages.map((stage) => stage.name);
    expect(new Set(names).size, "stage names").toBe(names.length);
    for (const stage of stages) {
      for (const copy of all(stage, "COPY")) {
        const from = copyFrom(copy);
        if (from === undefined) continue;
        const source = stageNamed(from);
        expect(source, `COPY --from=${from} (line ${lineOf(copy)})`).toBeDefined();
        expect(source!.index, `COPY --from=${from} (line ${lineOf(copy)})`).toBeLessThan(stage.index);
      }
    }
  });

  it("pins every base image by tag or digest, never latest", () => {
    for (const stage of stages) {
      if (stageNamed(stage.base)) continue;
      expect(stage.tag ?? stage.digest, `FROM ${stage.base} has no tag or digest`).toBeTruthy();
      if (stage.digest !== null) expect(stage.digest, `FROM ${stage.base}`).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(stage.tag, `FROM ${stage.base}`).not.toBe("latest");
    }
  });

  it("builds with npm ci from the lockfile and turbo, after copying every workspace's package.json", () => {
    const build = stageNamed("build")!;
    expect(installs(build)).toEqual([expect.stringMatching(/^npm ci\b/)]);
    expect(commands(build).some((command) => /\bturbo run build\b/.test(command))).toBe(true);
    const copied = new Set(lineage(build).flatMap((stage) => all(stage, "COPY").flatMap(copySources)));
    expect(copied.has("package-lock.json"), "the lockfile").toBe(true);
    expect(copied.has("package.json")).toBe(true);
    expect(workspaceFolders().length).toBeGreaterThan(0);
    for (const folder of workspaceFolders()) {
      expect(copied.has(`${folder}/package.json`), `${folder}/package.json copied before npm ci`).toBe(true);
    }
  });

  it("copies from the build context only paths that exist and that .dockerignore lets through", () => {
    expect(copiesFromContext.length).toBeGreaterThan(0);
    for (const copy of copiesFromContext) {
      for (const source of copySources(copy)) {
        expect(existsSync(join(repoRoot, source)), `COPY ${source} (line ${lineOf(copy)}) exists`).toBe(true);
        expect(isIgnored(source), `COPY ${source} (line ${lineOf(copy)}) is not in .dockerignore`).toBe(false);
      }
    }
  });

  it("gives the final stage production dependencies only, plus every workspace's package.json and dist/", () => {
    // A workspace without a build script (the chart's tests) has no dist/ to copy.
    const buildsDist = (folder: string) =>
      Boolean((JSON.parse(readFileSync(join(repoRoot, folder, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts?.build);
    const sources = all(runtime, "COPY").map((copy) => copyFrom(copy));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources, "the final stage copies only from earlier stages, never the context").not.toContain(undefined);
    for (const from of new Set(sources)) {
      const stage = stageNamed(from!)!;
      // node_modules comes from an install that left dev dependencies out, and from nowhere else.
      expect(installs(stage).length, `stage ${from} installs dependencies`).toBeGreaterThan(0);
      for (const install of installs(stage)) expect(install, `stage ${from}`).toMatch(/^npm ci\b.*--omit=dev\b/);
      expect(all(stage, "COPY").some((copy) => copyFrom(copy) && copySources(copy).some((s) => s.includes("node_modules")))).toBe(false);
      const copied = new Set(lineage(stage).flatMap((s) => all(s, "COPY").flatMap(copySources)));
      for (const folder of workspaceFolders()) {
        // node_modules/@bayad/<name> links to the workspace folder: it resolves only with both.
        expect(copied.has(`${folder}/package.json`), `${folder}/package.json`).toBe(true);
        if (buildsDist(folder)) expect(copied.has(`/app/${folder}/dist`), `${folder}/dist from the build stage`).toBe(true);
      }
      // Read at run time by gateway/dist/openapi/document.js (../../openapi/openapi.yaml).
      expect(copied.has("/app/gateway/openapi"), "gateway/openapi").toBe(true);
    }
    expect(sources).not.toContain("build");
  });

  it("runs the final stage as uid/gid 10001 in /app with NODE_ENV=production and HOST=0.0.0.0", () => {
    expect(firstArgument(last(runtime, "USER"))).toMatch(/^10001(:10001)?$/);
    expect(firstArgument(last(runtime, "WORKDIR"))).toBe("/app");
    const env = Object.assign({}, ...all(runtime, "ENV").map(propertiesOf)) as Record<string, string>;
    expect(env.NODE_ENV).toBe("production");
    expect(env.HOST).toBe("0.0.0.0");
    // Nothing after USER switches back to root.
    const userAt = runtime.instructions.lastIndexOf(last(runtime, "USER")!);
    expect(runtime.instructions.slice(userAt).filter((i) => keywordOf(i) === "RUN")).toEqual([]);
  });

  it("starts deploy/platform/dist/run-service.js with gateway by default, and exposes 8080, 50051 and 9464", () => {
    expect(argumentsOf(last(runtime, "ENTRYPOINT")!)).toEqual(["node", "deploy/platform/dist/run-service.js"]);
    expect(argumentsOf(last(runtime, "CMD")!)).toEqual(["gateway"]);
    expect(all(runtime, "EXPOSE").flatMap(argumentsOf)).toEqual(expect.arrayContaining(["8080", "50051", "9464"]));
    expect(last(runtime, "HEALTHCHECK"), "no HEALTHCHECK: one command cannot probe both HTTP and gRPC").toBeUndefined();
  });

  it("builds that entry point: src/run-service.ts compiles to dist/run-service.js in deploy/platform", () => {
    const tsconfig = JSON.parse(readRepoFile("deploy/platform/tsconfig.json")) as { compilerOptions: { rootDir: string; outDir: string } };
    expect(tsconfig.compilerOptions).toMatchObject({ rootDir: "src", outDir: "dist" });
    expect(copiesFromContext.some((copy) => copySources(copy).includes("deploy/platform/")), "deploy/platform/ sources copied").toBe(true);
    expect(existsSync(join(repoRoot, "deploy/platform/src/run-service.ts")), "deploy/platform/src/run-service.ts").toBe(true);
  });

  it("labels the image with org.opencontainers.image.* keys", () => {
    const labels = Object.assign({}, ...all(runtime, "LABEL").map(propertiesOf)) as Record<string, string>;
    for (const key of ["title", "description", "version", "revision"]) {
      expect(labels[`org.opencontainers.image.${key}`], key).toBeTruthy();
    }
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import ts from "typescript";
import { startTestPlatform, unique } from "./test-support/platform.js";

/**
 * The SDK's guide (libs/sdk/README.md): its examples are type-checked against the built SDK (`@bayad/sdk`
 * resolved as a consumer resolves it, to dist/), so that a changed SDK or OpenAPI document that
 * breaks them fails here instead of in a reader's editor; the ten-line example is also run
 * against the platform.
 */
const sdkDir = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** The compiler's complaints about `sources`, each compiled as an ES module in libs/sdk with the repository's settings. */
function typeErrors(sources: string[]): string[] {
  const files = new Map(sources.map((source, i) => [ts.sys.resolvePath(`${sdkDir}/readme-example-${i + 1}.ts`), source]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => files.has(ts.sys.resolvePath(name)) || fileExists.call(host, name);
  host.readFile = (name) => files.get(ts.sys.resolvePath(name)) ?? readFile.call(host, name);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const source = files.get(ts.sys.resolvePath(name));
    return source === undefined ? getSourceFile.call(host, name, languageVersion, ...rest) : ts.createSourceFile(name, source, languageVersion, true);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
    const name = diagnostic.file?.fileName.split("/").pop();
    return `${name}${where ? `:${where.line + 1}:${where.character + 1}` : ""} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

describe("the SDK's README", () => {
  const examples = tsBlocks(readme);

  it("has its TypeScript examples", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    expect(examples[0]).toContain("bayad.testHelpers.checkouts.pay");
  });

  it("type-checks every example against the built SDK", () => {
    expect(typeErrors(examples)).toEqual([]);
  });

  it("would catch an example the SDK no longer fits", () => {
    const broken = `import { Bayad } from "@bayad/sdk";\nconst bayad = new Bayad({ apiKey: "sk_test_x" });\nawait bayad.checkouts.create({ referenceId: "order-1", amount: 100 });\n`;
    expect(typeErrors([broken]).join("\n")).toMatch(/amount/);
  });

  it("runs the ten-line example against the platform: the checkout is paid and its refund pending", async () => {
    const platform = await startTestPlatform();
    const dir = mkdtempSync(join(tmpdir(), "bayad-readme-"));
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const apiKey = process.env.BAYAD_API_KEY;
    try {
      // The example as written, but for the platform's address, the built SDK's path and a fresh reference.
      const source = examples[0]!
        .replace('"http://127.0.0.1:8080"', JSON.stringify(platform.gatewayUrl))
        .replace('"@bayad/sdk"', JSON.stringify(pathToFileURL(`${sdkDir}/dist/index.js`).href))
        .replace('"order-1001"', JSON.stringify(unique("order")));
      for (const made of [platform.gatewayUrl, "/dist/index.js"]) expect(source).toContain(made);
      const file = join(dir, "example.mjs");
      writeFileSync(file, ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText);
      process.env.BAYAD_API_KEY = platform.testApiKey;
      await import(pathToFileURL(file).href);
      expect(log).toHaveBeenCalledWith("paid", "pending");
    } finally {
      log.mockRestore();
      if (apiKey === undefined) delete process.env.BAYAD_API_KEY;
      else process.env.BAYAD_API_KEY = apiKey;
      rmSync(dir, { recursive: true, force: true });
      await platform.close();
    }
  });
});

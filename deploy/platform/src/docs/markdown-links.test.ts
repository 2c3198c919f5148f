import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
import remarkValidateLinks from "remark-validate-links";
import type { PluggableList } from "unified";
import { engine } from "unified-engine";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every Markdown file's local links: files and images that exist, headings that do (in the same
 * file or another, by GitHub's anchors). remark-validate-links works offline and skips external
 * URLs, so this checks the docs' own web and nothing on the network.
 */
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The repository's Markdown files, tracked or new, without what .gitignore leaves out (node_modules, dist). */
function markdownFiles(root: string): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.md"], { cwd: root, encoding: "utf8" });
  return listed.split("\n").filter((path) => path !== "");
}

// Given to the engine, not to the processor, so that the plugin gets the whole file set (links
// into another file's headings); unified's own list type, since the engine's rejects its options' type.
const validateLinks: PluggableList = [[remarkValidateLinks, { repository: false }]];

/** One line per broken link: `file:line reason`. Checked together, so links into another file's headings are checked too. */
async function brokenLinks(root: string, files: string[]): Promise<string[]> {
  const context = await new Promise<{ files: { path: string; messages: { line?: number; reason: string }[] }[] }>((resolve, reject) => {
    engine(
      {
        processor: remark().use(remarkGfm),
        plugins: validateLinks,
        files,
        cwd: root,
        out: false,
        output: false,
        quiet: true,
        reporter: () => "",
      },
      (error, _code, result) => (error || !result ? reject(error ?? new Error("no result")) : resolve(result)),
    );
  });
  return context.files.flatMap((file) => file.messages.map((message) => `${file.path}:${message.line ?? "?"} ${message.reason}`));
}

describe("the Markdown files' links", () => {
  it("all resolve: every relative link's file and every anchor's heading exists", async () => {
    const files = markdownFiles(repoRoot);
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/architecture.md", "libs/sdk/README.md", "bench/README.md"]));
    expect(await brokenLinks(repoRoot, files)).toEqual([]);
  });

  describe("the check itself", () => {
    const root = mkdtempSync(join(tmpdir(), "bayad-links-"));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };

    it("finds a missing file, a missing heading here or in another file, and a missing image; skips external URLs", async () => {
      write("docs/api/errors.md", "# Errors\n\n## Codes\n");
      write(
        "README.md",
        [
          "# Bayad",
          "",
          "## Trying it",
          "",
          "[fine](docs/api/errors.md#codes) [fine too](#trying-it) [remote](https://example.invalid/nowhere.md#nope)",
          "",
          "[gone](docs/api/idempotency.md) [no heading](docs/api/errors.md#messages) [no anchor](#layout) ![no picture](shot.png)",
          "",
        ].join("\n"),
      );
      const broken = await brokenLinks(root, ["README.md", "docs/api/errors.md"]);
      expect(broken).toHaveLength(4);
      expect(broken.join("\n")).toMatch(/README\.md:7 .*docs\/api\/idempotency\.md/);
      expect(broken.join("\n")).toMatch(/README\.md:7 .*#messages.*docs\/api\/errors\.md/);
      expect(broken.join("\n")).toMatch(/README\.md:7 .*#layout/);
      expect(broken.join("\n")).toMatch(/README\.md:7 .*shot\.png/);
    });
  });
});

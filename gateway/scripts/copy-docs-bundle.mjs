// Part of the gateway's build: copies Scalar's standalone browser bundle (the /docs page's one
// script) into dist/docs-assets/ with its version beside it. The gateway serves it from there, so
// @scalar/api-reference is needed to build, not to run: the image carries one file, not the
// package and its few hundred dependencies.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const bundle = createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js");
const { version } = JSON.parse(readFileSync(join(dirname(bundle), "../../package.json"), "utf8"));
const out = new URL("../dist/docs-assets/", import.meta.url);
mkdirSync(out, { recursive: true });
copyFileSync(bundle, new URL("scalar-api-reference.js", out));
writeFileSync(new URL("scalar-api-reference.json", out), `${JSON.stringify({ version })}\n`);

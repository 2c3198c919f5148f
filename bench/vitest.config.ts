import { configDefaults, defineConfig } from "vitest/config";

/** `npm test`: everything but the checks at scale (*.scale.test.ts: `npm run test:reports-scale`, vitest.scale.config.ts). */
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, "**/*.scale.test.ts"],
  },
});

import { defineConfig } from "vitest/config";

/** `npm run test:reports-scale`: the checks at scale, which `npm test` never runs (vitest.config.ts leaves *.scale.test.ts out). */
export default defineConfig({
  test: {
    include: ["src/**/*.scale.test.ts"],
    testTimeout: 3 * 60 * 60 * 1000,
    hookTimeout: 10 * 60 * 1000,
  },
});

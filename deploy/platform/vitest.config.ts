import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // These tests start processes, often a whole platform: a second or two on a quiet machine,
    // several on a busy CI machine (vitest's default of 5 s once cut `npm start`'s test short).
    testTimeout: 30_000,
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each suite starts the whole platform, and the unsettled-outcome tests wait for its
    // reconciliation: seconds on a busy CI machine, past vitest's defaults of 5 s and 10 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

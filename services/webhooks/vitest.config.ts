import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Tests wait for deliveries made in the background, some after retry delays of seconds: a
    // busy CI machine must not cut them short at vitest's default of 5 s (they poll with deadlines).
    testTimeout: 30_000,
  },
});

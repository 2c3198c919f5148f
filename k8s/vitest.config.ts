import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["src/test-support/helm-setup.ts"],
  },
});

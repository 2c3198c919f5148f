import { defineConfig } from "vite";

// The gateway serves dist/ at /dashboard/ (gateway/src/dashboard/). Everything the app needs is
// bundled here: no CDN, so it works on a closed network. index.html carries no inline script or
// style, so the gateway's Content-Security-Policy can forbid both.
export default defineConfig({
  base: "/dashboard/",
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Inline assets would need data: script/style sources; keep every asset a file.
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      // React Query marks its modules "use client" (for server components); meaningless in a
      // browser-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
});

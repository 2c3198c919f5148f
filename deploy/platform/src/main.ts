import { setupTracing } from "@bayad/kit";
import { startPlatform } from "./platform.js";
import { exitOnStartError, printBanner, stopOnSignals, withDevelopmentDefaults } from "./launch-support.js";
import { dataDirFromEnv } from "./data-dir/data-dir.js";

/** `npm start`: the whole platform in one process, its data in DATA_DIR, then the three things a developer needs. */
async function main(): Promise<void> {
  // Before anything that traces is built (OTEL_EXPORTER_OTLP_ENDPOINT; off otherwise). The services thread sets up its own.
  const tracing = setupTracing("bayad");
  const platform = await startPlatform({ env: withDevelopmentDefaults(process.env), dataDir: dataDirFromEnv(process.env) });
  // Before the banner: whoever reads it may stop the platform at once.
  stopOnSignals({
    stop(signal) {
      process.stdout.write(`${signal}: stopping…\n`);
      return platform.close().finally(() => tracing?.shutdown());
    },
  });
  printBanner({ title: "Bayad is running (all services in one process).", ...platform });
}

main().catch((error: unknown) => exitOnStartError(error));

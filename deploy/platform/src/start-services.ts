import { createLogger } from "@bayad/kit";
import { launchServicesMode } from "./services-mode/services-launcher.js";
import { exitOnStartError, printBanner, stopOnSignals } from "./launch-support.js";
import { dataDirFromEnv } from "./data-dir/data-dir.js";

/**
 * `npm run start:services`: the platform as separate processes (the way it is deployed), on this
 * machine, against NATS_URL and, when set, MONGODB_URI (else each process's store in
 * DATA_DIR/<component>). Prints the gateway URL, the admin key and a test API key, then runs until
 * SIGINT/SIGTERM, which stops every process gracefully.
 */
async function main(): Promise<void> {
  const mode = await launchServicesMode({
    env: process.env,
    dataDir: dataDirFromEnv(process.env),
    output: (name, line) => process.stdout.write(`[${name.padEnd(8)}] ${line}\n`),
    // Named like the components' lines, which it prints among.
    logger: createLogger("bayad", process.env.LOG_LEVEL ?? "info").child({ service: "launcher" }),
  });
  stopOnSignals({ stop: () => mode.stop() });
  printBanner({ title: "Bayad is running in services mode (one process per service).", ...mode, metricsUrl: mode.metricsUrls.get("gateway") });
}

main().catch((error: unknown) => exitOnStartError(error));

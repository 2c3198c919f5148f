import { startPlatform } from "./platform.js";
import { exitOnStartError, printBanner, stopOnSignals } from "./launch-support.js";

/** `npm start`: the whole platform in one process, then the three things a developer needs. */
async function main(): Promise<void> {
  const platform = await startPlatform();
  printBanner({ title: "Bayad is running (all services in one process, embedded store: data lasts until it stops).", ...platform });
  stopOnSignals({
    stop(signal) {
      process.stdout.write(`${signal}: stopping…\n`);
      return platform.close();
    },
  });
}

main().catch((error: unknown) => exitOnStartError(error));

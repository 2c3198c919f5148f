import { componentNames, isComponentName, startComponent } from "./services-mode/components.js";
import { setupTracing } from "@bayad/kit";
import { runProcess } from "./services-mode/process-lifecycle.js";

/**
 * One component as its own process (services mode, containers): `node run-service.js <name>`,
 * configured only by environment variables.
 */
const name = process.argv[2];
if (!isComponentName(name)) {
  process.stderr.write(`Usage: run-service.js <${componentNames.join("|")}> (got ${name ?? "nothing"})\n`);
  process.exit(2);
}
// Before anything that traces is built (OTEL_EXPORTER_OTLP_ENDPOINT; off otherwise), named after the component.
const tracing = setupTracing(name, process.env);
void runProcess({
  name,
  env: process.env,
  async start(env, logger) {
    const running = await startComponent(name, env, logger);
    // The last spans go out after the component has drained.
    return { close: () => running.close().finally(() => tracing?.shutdown()) };
  },
});

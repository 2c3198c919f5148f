import { componentNames, isComponentName, startComponent } from "./services-mode/components.js";
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
void runProcess({ name, env: process.env, start: (env, logger) => startComponent(name, env, logger) });

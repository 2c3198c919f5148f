import { runSimulator } from "@bayad/simulator-kit";
import { startXenditSimulator } from "./simulator.js";

/** `npm run simulator:xendit`: the simulator for local work, on PORT (12112) until Ctrl-C. */
runSimulator({
  defaultPort: 12112,
  start: startXenditSimulator,
  banner: ({ url }) => [
    `Xendit simulator is running at ${url}`,
    `  API:       ${url}/v3/..., /sessions, /refunds  (Basic auth with any xnd_development_/xnd_production_ key)`,
    `  Controls:  ${url}/__simulator/...  (see deploy/xendit-simulator/README.md)`,
  ],
});

import { runSimulator } from "@bayad/simulator-kit";
import { startPaymongoSimulator } from "./simulator.js";

/** `npm run simulator:paymongo`: the simulator for local work, on PORT (12111) until Ctrl-C. */
runSimulator({
  defaultPort: 12111,
  start: startPaymongoSimulator,
  banner: ({ url }) => [
    `PayMongo simulator is running at ${url}`,
    `  Point Bayad at it:  PAYMONGO_API_BASE=${url}`,
    `  API:                ${url}/v1/...  (Basic auth with any sk_test_/sk_live_ key, 16+ base62 characters)`,
    `  Controls:           ${url}/__simulator/...  (see docs/operations/going-live.md)`,
  ],
});

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { announceFailure, announceReady, exitWithParent } from "../ipc.js";
import { baselineHost, type BaselineReady } from "./baseline-response.js";

/** Listens on a free loopback port, tells the benchmark where, and exits with it. */
export function serveBaseline(server: Server): void {
  server.on("error", (error) => announceFailure(error));
  server.listen(0, baselineHost, () => {
    const { port } = server.address() as AddressInfo;
    const ready: BaselineReady = { url: `http://${baselineHost}:${port}` };
    announceReady(ready);
  });
  exitWithParent();
}

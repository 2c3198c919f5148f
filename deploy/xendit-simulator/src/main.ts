import { startXenditSimulator } from "./simulator.js";

/** `npm run simulator:xendit`: the simulator for local work, on PORT (12112) until Ctrl-C. */
async function main(): Promise<void> {
  const port = Number(process.env["PORT"] ?? 12112);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, not ${process.env["PORT"]}`);
    process.exit(1);
  }
  const simulator = await startXenditSimulator({
    host: process.env["HOST"] ?? "127.0.0.1",
    port,
    log: (line) => console.log(line),
  });
  console.log(`Xendit simulator is running at ${simulator.url}`);
  console.log(`  API:       ${simulator.url}/v3/..., /sessions, /refunds  (Basic auth with any xnd_development_/xnd_production_ key)`);
  console.log(`  Controls:  ${simulator.url}/__simulator/...  (see deploy/xendit-simulator/README.md)`);
  console.log("Ctrl-C stops it.");
  const stop = () => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});

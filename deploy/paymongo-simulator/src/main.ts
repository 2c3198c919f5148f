import { startPaymongoSimulator } from "./simulator.js";

/** `npm run simulator:paymongo`: the simulator for local work, on PORT (12111) until Ctrl-C. */
async function main(): Promise<void> {
  const port = Number(process.env["PORT"] ?? 12111);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, not ${process.env["PORT"]}`);
    process.exit(1);
  }
  const simulator = await startPaymongoSimulator({
    host: process.env["HOST"] ?? "127.0.0.1",
    port,
    log: (line) => console.log(line),
  });
  console.log(`PayMongo simulator is running at ${simulator.url}`);
  console.log(`  Point Bayad at it:  PAYMONGO_API_BASE=${simulator.url}`);
  console.log(`  API:                ${simulator.url}/v1/...  (Basic auth with any sk_test_/sk_live_ key, 16+ base62 characters)`);
  console.log(`  Controls:           ${simulator.url}/__simulator/...  (see docs/operations/going-live.md)`);
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

/** What a simulator's `main.ts` starts: something at a URL that can be closed. */
export interface RunningSimulator {
  url: string;
  close(): Promise<void>;
}

export interface SimulatorProgram<S extends RunningSimulator> {
  /** The port when PORT is not set (12111 PayMongo, 12112 Xendit). */
  defaultPort: number;
  start(options: { host: string; port: number; log: (line: string) => void }): Promise<S>;
  /** The lines printed once it listens: where it is and how to use it. */
  banner(simulator: S): string[];
}

/** PORT as a port number (0–65535), `fallback` when unset; undefined when it is not one. */
export function portFrom(value: string | undefined, fallback: number): number | undefined {
  const port = Number(value ?? fallback);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : undefined;
}

/**
 * `npm run simulator:<name>`: starts the simulator on HOST (127.0.0.1) and PORT, logging to the
 * console, until Ctrl-C or SIGTERM closes it; a bad PORT or a failed start exits 1.
 */
export function runSimulator<S extends RunningSimulator>(program: SimulatorProgram<S>): void {
  const main = async () => {
    const port = portFrom(process.env["PORT"], program.defaultPort);
    if (port === undefined) {
      console.error(`PORT must be a port number, not ${process.env["PORT"]}`);
      process.exit(1);
    }
    const simulator = await program.start({ host: process.env["HOST"] ?? "127.0.0.1", port, log: (line) => console.log(line) });
    for (const line of program.banner(simulator)) console.log(line);
    console.log("Ctrl-C stops it.");
    const stop = () => {
      void simulator.close().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  };
  main().catch((err: unknown) => {
    console.error((err as Error).message);
    process.exit(1);
  });
}

import { createLogger, envInt, type Logger } from "@bayad/kit";
import { exitOnStartError, stopOnSignals } from "../launch-support.js";

type Env = Record<string, string | undefined>;

export interface RunningComponent {
  /** Stops accepting, drains in-flight work, flushes the outbox, closes the store and the bus. */
  close(): Promise<void>;
}

export interface ProcessOptions {
  name: string;
  env: Env;
  start(env: Env, logger: Logger): Promise<RunningComponent>;
}

/**
 * Runs one component as its own process: JSON logs, configuration validated before anything
 * starts (a bad value stops the process with one line naming the variable), and a graceful
 * stop on SIGTERM or SIGINT that exits 0 once drained, or 1 if the grace period runs out.
 */
export async function runProcess(options: ProcessOptions): Promise<void> {
  // Named like the one-process platform's lines, so a component logs the same in either mode.
  const logger = createLogger("bayad", options.env.LOG_LEVEL ?? "info").child({ service: options.name });
  let graceMs: number;
  let running: RunningComponent;
  try {
    graceMs = envInt(options.env, "SHUTDOWN_GRACE_MS", 20_000, { min: 0, max: 600_000 });
    running = await options.start(options.env, logger);
  } catch (error) {
    exitOnStartError(error, (failure) => logger.fatal({ err: failure }, `${options.name} could not start`));
  }
  logger.info({ component: options.name }, "started");

  stopOnSignals({
    async stop(signal) {
      logger.info({ signal, graceMs }, "stopping");
      await running.close();
      logger.info("stopped");
    },
    onError: (error) => logger.error({ err: error }, "error while stopping"),
    grace: { ms: graceMs, onTimeout: () => logger.error({ graceMs }, "not drained within the grace period; exiting") },
  });
}

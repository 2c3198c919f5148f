import { ConfigError, createLogger, envInt, type Logger } from "@bayad/kit";

type Env = Record<string, string | undefined>;

export interface RunningComponent {
  /** Stops accepting, drains in-flight work, flushes the outbox, closes the store and the bus. */
  close(): Promise<void>;
}

export interface ProcessOptions {
  name: string;
  env: Env;
  start(env: Env, logger: Logger): Promise<RunningComponent>;
  /** Process exit, injectable for tests. */
  exit?: (code: number) => void;
}

/**
 * Runs one component as its own process: JSON logs, configuration validated before anything
 * starts (a bad value stops the process with one line naming the variable), and a graceful
 * stop on SIGTERM or SIGINT that exits 0 once drained, or 1 if the grace period runs out.
 */
export async function runProcess(options: ProcessOptions): Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const logger = createLogger(`bayad-${options.name}`, options.env.LOG_LEVEL ?? "info");
  let graceMs: number;
  let running: RunningComponent;
  try {
    graceMs = envInt(options.env, "SHUTDOWN_GRACE_MS", 20_000, { min: 0, max: 600_000 });
    running = await options.start(options.env, logger);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
    } else {
      logger.fatal({ err: error }, `${options.name} could not start`);
    }
    exit(1);
    return;
  }
  logger.info({ component: options.name }, "started");

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs }, "stopping");
    const deadline = setTimeout(() => {
      logger.error({ graceMs }, "not drained within the grace period; exiting");
      exit(1);
    }, graceMs);
    deadline.unref();
    running.close().then(
      () => {
        clearTimeout(deadline);
        logger.info("stopped");
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        logger.error({ err: error }, "error while stopping");
        exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

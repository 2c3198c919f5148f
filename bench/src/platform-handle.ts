import { oneProcessNodeFlags } from "@bayad/platform/node-flags";
import { forkChild, type ForkedChild } from "./child-process.js";
import { platformCpuMeter, type CpuMeter } from "./thread-cpu.js";
import type { MemoryReading } from "./memory.js";
import type { PlatformCommand, PlatformReady } from "./platform-protocol.js";

/** The platform process as the benchmark drives it. */
export interface PlatformHandle extends PlatformReady {
  readonly pid: number;
  memory(): Promise<MemoryReading>;
  drain(): Promise<void>;
  countRecords(): Promise<number>;
  dropData(): Promise<number>;
  /** Measures CPU per request by thread (see thread-cpu.ts); undefined where /proc cannot tell. */
  readonly cpuMeter: CpuMeter | undefined;
  /** Closes the platform gracefully, then ends its process. */
  stop(): Promise<void>;
}

export interface PlatformStartOptions {
  /** Where `--cpu-prof` writes the platform's CPU profile; no profiling when absent. */
  profileDir?: string;
  /** DATA_DIR, as `npm start` takes it: the stores are kept there. Without it, temporary stores. */
  dataDir?: string;
  /** The gateway's port (so its /readyz can be polled before it says it is ready); a free one when absent. */
  port?: number;
}

/**
 * The gateway's rate limits at their highest: every request is still counted (the rows measure
 * what that costs), but none of the benchmark's thousands a second is refused.
 */
const countedButNeverRefused = {
  RATE_LIMIT_CREDENTIAL_READS: "1000000",
  RATE_LIMIT_CREDENTIAL_WRITES: "1000000",
  RATE_LIMIT_PROJECT_READS: "1000000",
  RATE_LIMIT_PROJECT_WRITES: "1000000",
  // The OTP service's fraud signals: codes to one range from one address, few verified.
  OTP_GENERATE_PREFIX_LIMIT: "1000000",
  OTP_GENERATE_CLIENT_LIMIT: "1000000",
  OTP_SUSPICIOUS_MIN_GENERATED: "1000000",
};

/**
 * Scenario 7's receiver listens on loopback, where the webhooks service delivers to test-mode
 * endpoints only when told it may (as `npm start` tells it).
 */
const deliversToLoopback = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };

/**
 * Starts the platform as `npm start` would, on embedded defaults, in its own process: no
 * NATS_URL (the in-process bus), temporary stores unless given a DATA_DIR, free ports (API and metrics), LOG_LEVEL warn,
 * loopback webhook targets allowed, npm start's Node.js flags, and --expose-gc for the memory readings. The rest of the caller's environment passes through, as it would to `npm start`.
 */
export async function startPlatformProcess(options: PlatformStartOptions = {}): Promise<PlatformHandle> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(options.port ?? 0), METRICS_PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...countedButNeverRefused, ...deliversToLoopback };
  delete env.DATA_DIR;
  if (options.dataDir !== undefined) env.DATA_DIR = options.dataDir;
  delete env.NATS_URL;
  delete env.EVENTS_NAMESPACE;
  const execArgv = [...oneProcessNodeFlags, "--expose-gc"];
  if (options.profileDir) execArgv.push("--cpu-prof", "--cpu-prof-dir", options.profileDir);

  const child: ForkedChild<PlatformReady> = await forkChild("platform", new URL("./platform-process.js", import.meta.url), {
    execArgv,
    env,
    readyTimeoutMs: 120_000,
  });
  const run = <T>(command: PlatformCommand) => child.request<T>(command);
  let stopping = false;
  // Said at once: the failure it causes (a refused connection, a rejected request) names no
  // cause. Exit code 0 is a graceful stop (a Ctrl-C reaches the platform directly too).
  void child.exited.then((how) => {
    if (!stopping && how !== "code 0") process.stderr.write(`\nthe platform process exited unexpectedly (${how})\n`);
  });
  return {
    ...child.ready,
    pid: child.pid,
    memory: () => run<MemoryReading>("memory"),
    drain: () => run<void>("drain"),
    countRecords: () => run<number>("count-records"),
    dropData: () => run<number>("drop-data"),
    cpuMeter: platformCpuMeter(child.pid, child.ready.servicesThreadId),
    async stop() {
      stopping = true;
      await run<void>("stop");
      await child.stop();
    },
  };
}

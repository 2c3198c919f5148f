import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ChildMessage, RequestMessage } from "./ipc.js";

/** A forked server process that announced it is ready. */
export interface ForkedChild<Ready> {
  readonly name: string;
  readonly pid: number;
  /** What the child sent with its ready message (its URL, credentials…). */
  readonly ready: Ready;
  /** Runs a command in the child (see ipc.ts) and resolves with its reply. */
  request<T>(command: string, timeoutMs?: number): Promise<T>;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  readonly exited: Promise<string>;
  /** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface ForkOptions {
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  /** How long the child may take to announce it is ready. */
  readyTimeoutMs?: number;
}

/**
 * Every child still running, so that a Ctrl-C, a failure or a plain exit of the benchmark can
 * stop them: a benchmark that leaves servers behind poisons the next run's figures.
 */
const running = new Set<ChildProcess>();

process.on("exit", () => {
  // Last resort (synchronous): whatever was not stopped gracefully is killed now.
  for (const child of running) child.kill("SIGKILL");
});

/** Stops every child still running (SIGTERM, then SIGKILL after the grace period). */
export async function stopAllChildren(graceMs = 15_000): Promise<void> {
  await Promise.all([...running].map((child) => stopProcess(child, graceMs)));
}

async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    // A process that never spawned never exits: the last timer gives up on it.
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    const giveUp = setTimeout(done, graceMs + 5_000);
    function done() {
      clearTimeout(kill);
      clearTimeout(giveUp);
      resolve();
    }
    child.once("exit", done);
    child.kill("SIGTERM");
  });
}

/** Forks `module` (a compiled file of this package) and waits for its ready message. */
export async function forkChild<Ready>(name: string, module: URL, options: ForkOptions = {}): Promise<ForkedChild<Ready>> {
  const child = fork(fileURLToPath(module), [], {
    execArgv: options.execArgv ?? [],
    env: options.env ?? process.env,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  running.add(child);
  // A failed spawn or a closed channel is reported through the ready and request promises.
  child.on("error", () => {});
  const exited = new Promise<string>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve(signal ?? `code ${code}`);
    }),
  );

  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  child.on("message", (message: ChildMessage) => {
    if (message.type !== "reply") return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(new Error(`${name}: ${message.error}`));
  });
  void exited.then((how) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${name} exited (${how})`));
    pending.clear();
  });

  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => settle(() => reject(new Error(`${name} did not start within ${readyTimeoutMs} ms`))), readyTimeoutMs);
    const onMessage = (message: ChildMessage) => {
      if (message.type === "ready") settle(() => resolve(message.value as Ready));
      else if (message.type === "failed") settle(() => reject(new Error(`${name} could not start: ${message.error}`)));
    };
    const onExit = () => settle(() => reject(new Error(`${name} exited before it was ready (code ${child.exitCode ?? child.signalCode})`)));
    const onError = (error: Error) => settle(() => reject(new Error(`${name} could not be started: ${error.message}`)));
    function settle(outcome: () => void) {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      child.off("error", onError);
      outcome();
    }
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.once("error", onError);
  }).catch(async (error: unknown) => {
    await stopProcess(child, 5_000);
    throw error;
  });

  return {
    name,
    pid: child.pid ?? -1,
    ready,
    exited,
    // The default outlasts the platform's own longest wait (a 10-minute drain).
    request<T>(command: string, timeoutMs = 15 * 60_000): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${name}: "${command}" did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        const message: RequestMessage = { type: "request", id, command };
        child.send(message, (error) => {
          if (!error) return;
          pending.get(id)?.reject(new Error(`${name}: could not send "${command}": ${error.message}`));
          pending.delete(id);
        });
      });
    },
    stop: (graceMs = 15_000) => stopProcess(child, graceMs),
  };
}

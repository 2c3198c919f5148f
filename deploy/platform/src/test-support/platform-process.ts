import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { oneProcessNodeFlags } from "../node-flags.js";

/** `npm start`'s entry, built: the platform as a developer starts it, in a child process. */
const main = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface PlatformProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** What the banner says, read once it is printed. */
export interface PrintedBanner {
  gatewayUrl: string;
  adminApiKey: string;
  testApiKey: string;
  projectId: string;
  /** The Data line's directory. */
  dataDir: string | undefined;
}

/**
 * Starts `node main.js` with the one-process flags and only `env` (and PATH): nothing of the test
 * runner's environment leaks in. `uid` runs it as another user (a test running as root).
 */
export function launchPlatform(env: Record<string, string>, options: { uid?: number } = {}): PlatformProcess {
  const child = spawn(process.execPath, [...oneProcessNodeFlags, main], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * For a suite that starts platforms as child processes (call it inside `describe`): a fresh
 * temporary directory per test (`parent()`), platforms launched on free ports (`launch`), and,
 * after each test, every one of them killed and the directory removed.
 */
export function temporaryPlatforms(prefix: string) {
  let parent = "";
  let running: PlatformProcess[] = [];
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const platform of running) {
      platform.child.kill("SIGKILL");
      await platform.exited;
    }
    running = [];
    rmSync(parent, { recursive: true, force: true });
  });
  return {
    parent: () => parent,
    launch(env: Record<string, string>, options: { uid?: number } = {}): PlatformProcess {
      const platform = launchPlatform({ PORT: "0", METRICS_PORT: "0", ...env }, options);
      running.push(platform);
      return platform;
    },
  };
}

/** Polls the output until it matches `pattern`; fails if the process exits first. */
export async function waitFor(read: () => string, pattern: RegExp, exited: Promise<unknown>): Promise<RegExpMatchArray> {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (done) throw new Error(`the process exited before printing ${pattern}:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits for the whole banner (its test key line comes after the others) and reads it. */
export async function bannerOf(platform: PlatformProcess): Promise<PrintedBanner> {
  const [, testApiKey, projectId] = await waitFor(platform.output, /Test API key:\s+(sk_test_\S+)\s+\(project (prj_\w+)\)/, platform.exited);
  const text = platform.output();
  return {
    gatewayUrl: /Gateway URL:\s+(http:\/\/\S+)/.exec(text)![1]!,
    adminApiKey: /Admin key:\s+(\S+)/.exec(text)![1]!,
    testApiKey: testApiKey!,
    projectId: projectId!,
    dataDir: /Data:\s+(\S+)/.exec(text)?.[1],
  };
}

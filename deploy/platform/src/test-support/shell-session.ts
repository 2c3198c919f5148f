import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What one command printed, and how it ended. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitStatus: number;
}

export interface ShellSession {
  /**
   * Runs `command` (one or more lines, as a user would paste them) in the session's shell: the
   * variables and functions it sets stay for the next commands. Its stdin is /dev/null.
   */
  run(command: string, timeoutMs?: number): Promise<CommandResult>;
  close(): Promise<void>;
}

/** Why bash and curl cannot run here, or undefined when both can. */
export function missingShellTools(): string | undefined {
  const missing = ["bash", "curl"].filter((tool) => spawnSync(tool, ["--version"], { stdio: "ignore" }).status !== 0);
  return missing.length > 0 ? `${missing.join(" and ")} not found on PATH` : undefined;
}

/**
 * One bash process reading commands from a pipe, as a terminal a user pastes into would run them
 * one after another. Each command's output goes to files of its own; a marker line on the shell's
 * own stdout says it ended and with which status. The environment is PATH and a HOME of its own
 * (no ~/.curlrc of the machine's user changes what curl sends).
 */
export function startShellSession(): ShellSession {
  const dir = mkdtempSync(join(tmpdir(), "bayad-shell-"));
  const shell = spawn("bash", ["--noprofile", "--norc", "-s"], {
    env: { PATH: process.env.PATH ?? "", HOME: dir, LANG: "C.UTF-8" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const marker = `__command_done_${randomBytes(6).toString("hex")}__`;
  let printed = "";
  shell.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  shell.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<void>((resolve) => shell.once("exit", () => resolve()));
  let count = 0;

  return {
    async run(command, timeoutMs = 30_000) {
      const n = ++count;
      const out = join(dir, `${n}.out`);
      const err = join(dir, `${n}.err`);
      // The newline before `}` ends a trailing comment; the group runs in the shell itself, so its
      // assignments and functions stay.
      shell.stdin.write(`{ ${command}\n} </dev/null >'${out}' 2>'${err}'; echo "${marker} ${n} $?"\n`);
      const done = new RegExp(`${marker} ${n} (\\d+)`);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = done.exec(printed);
        if (match) {
          return { stdout: readFileSync(out, "utf8"), stderr: readFileSync(err, "utf8"), exitStatus: Number(match[1]) };
        }
        if (shell.exitCode !== null || shell.signalCode !== null) throw new Error(`the shell ended while running:\n${command}\n${printed}`);
        if (Date.now() > deadline) throw new Error(`no end of this command within ${timeoutMs} ms (an unclosed quote?):\n${command}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      shell.stdin.end();
      if (shell.exitCode === null && shell.signalCode === null) {
        const killer = setTimeout(() => shell.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

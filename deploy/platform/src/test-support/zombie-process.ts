import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { readHolderState } from "../data-dir/holder-state.js";

export interface Zombie {
  /** A process that was killed and is not reaped: kill(pid, 0) still finds it. */
  pid: number;
  /** Its parent, which never reaps it: kill it (SIGKILL) when done, and the zombie goes with it. */
  parent: ChildProcess;
}

/**
 * A zombie (Linux): bash starts a background `sleep`, prints its pid and becomes `sleep` itself
 * (exec), which never waits for children; the background one, killed, stays unreaped. It is
 * killed only once the parent runs `sleep`: bash itself would still reap it. Resolves once /proc
 * shows it a zombie.
 */
export async function unreapedZombie(): Promise<Zombie> {
  const parent = spawn("bash", ["-c", "sleep 1000 & echo $!; exec sleep 1000"], { stdio: ["ignore", "pipe", "ignore"] });
  let pid: number | undefined;
  for await (const line of createInterface({ input: parent.stdout! })) {
    pid = Number(line);
    break;
  }
  if (pid === undefined || !Number.isInteger(pid)) throw new Error("the zombie's parent printed no pid");
  const deadline = Date.now() + 10_000;
  while (!(await readFile(`/proc/${parent.pid}/cmdline`, "utf8")).startsWith("sleep\0")) {
    if (Date.now() > deadline) throw new Error(`the zombie's parent (pid ${parent.pid}) did not become sleep within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.kill(pid, "SIGKILL");
  while ((await readHolderState(pid)).kind !== "gone") {
    if (Date.now() > deadline) throw new Error(`pid ${pid} did not become a zombie within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { pid, parent };
}

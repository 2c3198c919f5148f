import { spawn, type ChildProcess } from "node:child_process";
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
 * (exec), which never waits for children; the background one, killed, stays unreaped. Resolves
 * once /proc shows it a zombie.
 */
export async function unreapedZombie(): Promise<Zombie> {
  const parent = spawn("bash", ["-c", "sleep 1000 & echo $!; exec sleep 1000"], { stdio: ["ignore", "pipe", "ignore"] });
  let pid: number | undefined;
  for await (const line of createInterface({ input: parent.stdout! })) {
    pid = Number(line);
    break;
  }
  if (pid === undefined || !Number.isInteger(pid)) throw new Error("the zombie's parent printed no pid");
  process.kill(pid, "SIGKILL");
  const deadline = Date.now() + 10_000;
  while ((await readHolderState(pid)).kind !== "gone") {
    if (Date.now() > deadline) throw new Error(`pid ${pid} did not become a zombie within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { pid, parent };
}

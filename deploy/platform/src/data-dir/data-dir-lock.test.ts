import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { lockDataDir, lockFileName, takeOverMessage } from "./data-dir-lock.js";
import { readHolderState, type HolderState } from "./holder-state.js";
import { unreapedZombie } from "../test-support/zombie-process.js";

const onLinux = process.platform === "linux";

function inUse(dir: string, pid: number): ConfigError {
  return new ConfigError("DATA_DIR", `${dir} is in use by another Bayad process (pid ${pid}): stop it, or set DATA_DIR to another directory`);
}

/** A process state reader that answers `states` in turn (the last one from then on), counting its calls. */
function scripted(...states: HolderState[]) {
  const reader = {
    calls: 0,
    read: (): Promise<HolderState> => Promise.resolve(states[Math.min(reader.calls++, states.length - 1)]!),
  };
  return reader;
}

/** The real reader, counting its calls. */
function counted() {
  const reader = {
    calls: 0,
    read: (pid: number) => {
      reader.calls++;
      return readHolderState(pid);
    },
  };
  return reader;
}

const exiting: HolderState = { kind: "exiting", sign: "SIGKILL pending" };

describe("lockDataDir", () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bayad-data-dir-lock-"));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(onLinux)("takes over at once from a zombie, which kill(pid, 0) still finds", async () => {
    const { pid: zombie, parent } = await unreapedZombie();
    children.push(parent);
    expect(() => process.kill(zombie, 0)).not.toThrow();
    writeFileSync(join(dir, lockFileName), `${zombie}\n`);

    const reader = counted();
    const lock = await lockDataDir(dir, { readHolderState: reader.read });
    expect(lock.takenOver).toEqual({ pid: zombie, sign: "zombie", waitedMs: 0 });
    expect(reader.calls).toBe(1);
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it("refuses a holder that runs at once, without waiting for it", async () => {
    const holder = spawn("sleep", ["1000"], { stdio: "ignore" });
    children.push(holder);
    writeFileSync(join(dir, lockFileName), `${holder.pid}\n`);
    const reader = counted();
    await expect(lockDataDir(dir, { readHolderState: reader.read })).rejects.toThrow(inUse(dir, holder.pid!));
    expect(reader.calls).toBe(1);
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe(`${holder.pid}\n`);
  });

  it("takes over from a process that is simply gone without naming it", async () => {
    const gone = spawnSync("true").pid!;
    writeFileSync(join(dir, lockFileName), `${gone}\n`);
    const lock = await lockDataDir(dir);
    expect(lock.takenOver).toBeUndefined();
    await lock.release();
  });

  it("waits for a holder that is exiting, then takes over and says what it waited for", async () => {
    writeFileSync(join(dir, lockFileName), "4242\n");
    const reader = scripted(exiting, exiting, exiting, { kind: "gone" });
    const lock = await lockDataDir(dir, { readHolderState: reader.read });
    expect(reader.calls).toBe(4);
    expect(lock.takenOver).toEqual({ pid: 4242, sign: "SIGKILL pending", waitedMs: expect.any(Number) });
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it("refuses a holder still exiting when the wait is up, as one that runs", async () => {
    writeFileSync(join(dir, lockFileName), "4242\n");
    const reader = scripted(exiting);
    await expect(lockDataDir(dir, { readHolderState: reader.read, exitWaitMs: 50 })).rejects.toThrow(inUse(dir, 4242));
    expect(reader.calls).toBeGreaterThan(1);
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe("4242\n");
  });

  it("refuses the start that waited when another took the directory over meanwhile", async () => {
    writeFileSync(join(dir, lockFileName), "4242\n");
    const other = spawn("sleep", ["1000"], { stdio: "ignore" });
    children.push(other);
    const reader = {
      calls: 0,
      read: (pid: number): Promise<HolderState> => {
        reader.calls++;
        if (pid !== 4242) return readHolderState(pid);
        // The other start takes the file while this one waits.
        if (reader.calls === 2) writeFileSync(join(dir, lockFileName), `${other.pid}\n`);
        return Promise.resolve(reader.calls < 2 ? exiting : { kind: "gone" });
      },
    };
    await expect(lockDataDir(dir, { readHolderState: reader.read })).rejects.toThrow(inUse(dir, other.pid!));
    expect(readFileSync(join(dir, lockFileName), "utf8")).toBe(`${other.pid}\n`);
  });
});

describe("takeOverMessage", () => {
  it("says what was waited for and how long, or that a zombie was taken at once", () => {
    expect(takeOverMessage("/data", { pid: 7, sign: "SIGKILL pending", waitedMs: 420 })).toBe(
      "DATA_DIR /data was held by pid 7, which was exiting (SIGKILL pending): waited 420 ms",
    );
    expect(takeOverMessage("/data", { pid: 7, sign: "zombie", waitedMs: 0 })).toBe(
      "DATA_DIR /data was held by pid 7, a zombie (exited, not yet reaped): taken over at once",
    );
  });
});

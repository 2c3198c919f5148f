import { describe, expect, it } from "vitest";
import { holderStateFromStatus, signalPending, statusFields } from "./holder-state.js";

/**
 * /proc/<pid>/status as Linux 6.18 wrote it (its first lines, a few Vm ones left out) for a process
 * holding 3 GB with five threads: running; after `kill -9`, while its last thread released the
 * memory (Z, 2 threads, SIGKILL in ShdPnd); once only the unreaped zombie was left.
 */
function status(state: string, threads: number, sigPnd: string, shdPnd: string): string {
  return [
    "Name:\tbig",
    "Umask:\t0022",
    `State:\t${state}`,
    "Tgid:\t20038",
    "Ngid:\t0",
    "Pid:\t20038",
    "PPid:\t19997",
    "TracerPid:\t0",
    "Uid:\t0\t0\t0\t0",
    "Gid:\t0\t0\t0\t0",
    "FDSize:\t256",
    "Groups:\t ",
    "NStgid:\t20038",
    "NSpid:\t20038",
    "Kthread:\t0",
    "VmRSS:\t 3147160 kB",
    `Threads:\t${threads}`,
    "SigQ:\t2/96365",
    `SigPnd:\t${sigPnd}`,
    `ShdPnd:\t${shdPnd}`,
    "SigBlk:\t0000000000000000",
    "SigIgn:\t0000000000000000",
    "SigCgt:\t0000000100000000",
    "",
  ].join("\n");
}
const none = "0000000000000000";
const sigkill = "0000000000000100";

describe("holderStateFromStatus", () => {
  it("a process that sleeps or runs holds its directory", () => {
    expect(holderStateFromStatus(status("S (sleeping)", 5, none, none))).toEqual({ kind: "runs" });
    expect(holderStateFromStatus(status("R (running)", 1, none, none))).toEqual({ kind: "runs" });
    expect(holderStateFromStatus(status("T (stopped)", 1, none, none))).toEqual({ kind: "runs" });
  });

  it("a process with SIGKILL pending is exiting, also while its leader already shows Z and a thread releases the memory", () => {
    expect(holderStateFromStatus(status("R (running)", 5, sigkill, sigkill))).toEqual({ kind: "exiting", sign: "SIGKILL pending" });
    expect(holderStateFromStatus(status("Z (zombie)", 2, none, sigkill))).toEqual({ kind: "exiting", sign: "SIGKILL pending" });
    expect(holderStateFromStatus(status("D (disk sleep)", 3, sigkill, none))).toEqual({ kind: "exiting", sign: "SIGKILL pending" });
  });

  it("a zombie that is the last of its threads holds nothing, SIGKILL or not; nor does a dead process", () => {
    expect(holderStateFromStatus(status("Z (zombie)", 1, none, sigkill))).toEqual({ kind: "gone", sign: "zombie" });
    expect(holderStateFromStatus(status("Z (zombie)", 1, none, none))).toEqual({ kind: "gone", sign: "zombie" });
    expect(holderStateFromStatus(status("X (dead)", 1, none, none))).toEqual({ kind: "gone", sign: "dead" });
  });

  it("a zombie leader whose other threads run (it called pthread_exit) still holds its directory", () => {
    expect(holderStateFromStatus(status("Z (zombie)", 2, none, none))).toEqual({ kind: "runs" });
  });

  it("other signals pending change nothing", () => {
    // SIGTERM (15) and SIGUSR1 (10).
    expect(holderStateFromStatus(status("S (sleeping)", 1, "0000000000004200", "0000000000004000"))).toEqual({ kind: "runs" });
  });

  it("is undefined for a text without the fields it reads", () => {
    expect(holderStateFromStatus("")).toBeUndefined();
    expect(holderStateFromStatus("Name:\tbig\nState:\tS (sleeping)\n")).toBeUndefined();
    expect(holderStateFromStatus(status("S (sleeping)", 1, "zz", none))).toBeUndefined();
  });
});

describe("statusFields", () => {
  it("reads each line's name and trimmed value, keeping a colon inside the value", () => {
    const fields = statusFields("Name:\tnode: worker\nState:\tS (sleeping)\nGroups:\t \n");
    expect(fields.get("Name")).toBe("node: worker");
    expect(fields.get("State")).toBe("S (sleeping)");
    expect(fields.get("Groups")).toBe("");
  });
});

describe("signalPending", () => {
  it("reads signal n at bit n - 1 of the mask", () => {
    expect(signalPending(sigkill, 9)).toBe(true);
    expect(signalPending(sigkill, 8)).toBe(false);
    expect(signalPending(sigkill, 10)).toBe(false);
    expect(signalPending("0000000000000001", 1)).toBe(true);
    // Real-time signals sit in the upper half of the 64-bit mask.
    expect(signalPending("8000000000000000", 64)).toBe(true);
    expect(signalPending(none, 9)).toBe(false);
  });
});

import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuTicksOfStat, osThreadIdHere, splitByThread, threadCpuSeconds } from "./thread-cpu.js";

const hasProc = existsSync("/proc/thread-self");

describe("cpuTicksOfStat", () => {
  it("adds utime and stime, counting fields from the last parenthesis of the thread's name", () => {
    // Fields 14 and 15 (utime, stime) are 1234 and 56; the name holds a space and a parenthesis.
    const line = "4242 (v8:Prof (x) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 0 0 20 0 11 0 99 0 0";
    expect(cpuTicksOfStat(line)).toBe(1290);
  });

  it("refuses a line that is not a stat line rather than reading nonsense", () => {
    expect(() => cpuTicksOfStat("not a stat line")).toThrow(/not a \/proc stat line/);
  });
});

describe("splitByThread", () => {
  it("groups the threads' use into gateway, services and the rest, per request", () => {
    const before = new Map([
      [100, 1.0],
      [101, 2.0],
      [102, 0.5],
    ]);
    // Thread 103 started during the run: all of its time counts.
    const after = new Map([
      [100, 1.4],
      [101, 2.6],
      [102, 0.6],
      [103, 0.1],
    ]);
    const cpu = splitByThread(before, after, 100, 101, 0.2, 2_000);
    expect(cpu.gatewayUs).toBeCloseTo(200);
    expect(cpu.servicesUs).toBeCloseTo(300);
    expect(cpu.otherUs).toBeCloseTo(100);
    expect(cpu.loadGeneratorUs).toBeCloseTo(100);
  });

  it("has no services figure when the services share the gateway's thread", () => {
    const cpu = splitByThread(new Map([[100, 0]]), new Map([[100, 1]]), 100, null, 0, 1_000);
    expect(cpu.servicesUs).toBeNull();
    expect(cpu.gatewayUs).toBeCloseTo(1_000);
  });
});

describe.skipIf(!hasProc)("threads of a running process (needs /proc)", () => {
  it("reads this thread's CPU time, and it grows with work done on it", () => {
    const tid = osThreadIdHere();
    expect(tid).toBe(process.pid);
    const before = threadCpuSeconds(process.pid)!.get(process.pid)!;
    const until = process.cpuUsage().user + 50_000;
    let spin = 0;
    while (process.cpuUsage().user < until) spin++;
    const after = threadCpuSeconds(process.pid)!.get(process.pid)!;
    expect(spin).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(before);
  });
});

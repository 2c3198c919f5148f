import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * CPU per request, split by where it was spent: the platform's gateway thread (its main thread),
 * its services thread, its other threads (V8's garbage-collection helpers, libuv's pool), and the
 * load generator (autocannon, in the benchmark's own process). On two cores they all share the
 * same CPU, so a row's req/s is bounded by their sum as much as by its busiest thread.
 */
export interface CpuPerRequest {
  /** Microseconds per request on the platform's main thread (the gateway; the services too when they share it). */
  gatewayUs: number;
  /** On the services' worker thread; null when the services run on the main thread. */
  servicesUs: number | null;
  /** On every other thread of the platform process. */
  otherUs: number;
  /** In the benchmark's process: autocannon and the benchmark's per-response bookkeeping. */
  loadGeneratorUs: number;
}

/** Starts a measurement; the function it returns ends it and divides by the requests answered meanwhile. */
export type CpuMeter = () => (requests: number) => CpuPerRequest | undefined;

/** USER_HZ, the unit of /proc's CPU times: 100 on every architecture Linux runs Node.js on. */
const clockTicksPerSecond = 100;

/**
 * utime + stime, in clock ticks, from one /proc/<pid>/task/<tid>/stat line. The thread's name
 * (field 2, in parentheses) may itself hold spaces and parentheses, so the fields are counted
 * from the last ")": utime and stime are fields 14 and 15 of the line.
 */
export function cpuTicksOfStat(line: string): number {
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (the state), so field n is fields[n - 3].
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime)) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  return utime + stime;
}

/** CPU seconds each thread of `pid` has used so far, by thread id; undefined where /proc cannot tell (not Linux). */
export function threadCpuSeconds(pid: number): Map<number, number> | undefined {
  let threadIds: string[];
  try {
    threadIds = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const seconds = new Map<number, number>();
  for (const tid of threadIds) {
    try {
      seconds.set(Number(tid), cpuTicksOfStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")) / clockTicksPerSecond);
    } catch {
      // The thread ended between the listing and the read: what it used is gone with it.
    }
  }
  return seconds;
}

/**
 * A meter for the platform process `pid`, whose main thread is the gateway's and whose services
 * run on thread `servicesThreadId` (the pid itself when they share the main thread). Undefined
 * where /proc cannot tell.
 */
export function platformCpuMeter(pid: number, servicesThreadId: number | null): CpuMeter | undefined {
  if (threadCpuSeconds(pid) === undefined) return undefined;
  return () => {
    const before = threadCpuSeconds(pid);
    const ownBefore = process.cpuUsage();
    return (requests) => {
      const own = process.cpuUsage(ownBefore);
      const after = threadCpuSeconds(pid);
      if (!before || !after || requests === 0) return undefined;
      return splitByThread(before, after, pid, servicesThreadId === pid ? null : servicesThreadId, (own.user + own.system) / 1e6, requests);
    };
  };
}

/** Each thread's use between two readings, grouped and divided by `requests` (a thread that started in between counts from zero). */
export function splitByThread(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
  mainThreadId: number,
  servicesThreadId: number | null,
  loadGeneratorSeconds: number,
  requests: number,
): CpuPerRequest {
  let gateway = 0;
  let services = 0;
  let other = 0;
  for (const [tid, total] of after) {
    const used = total - (before.get(tid) ?? 0);
    if (tid === mainThreadId) gateway += used;
    else if (tid === servicesThreadId) services += used;
    else other += used;
  }
  const perRequest = (seconds: number) => (seconds * 1e6) / requests;
  return {
    gatewayUs: perRequest(gateway),
    servicesUs: servicesThreadId === null ? null : perRequest(services),
    otherUs: perRequest(other),
    loadGeneratorUs: perRequest(loadGeneratorSeconds),
  };
}

/** The operating system's id of the calling thread (what /proc/<pid>/task lists); undefined without /proc. */
export function osThreadIdHere(): number | undefined {
  try {
    // /proc/thread-self links to "<pid>/task/<tid>".
    return Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return undefined;
  }
}

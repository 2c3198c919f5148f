import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";

export interface BenchOptions {
  /** Seconds each measured run lasts. */
  durationSeconds: number;
  /** Seconds of warm-up before each measured run (not counted). */
  warmupSeconds: number;
  connections: number;
  /** Seconds of the memory soak (scenario 2 without a break). */
  soakSeconds: number;
  /** Seconds waited before the soak's empty-store readings so the event bus's duplicate window expires (0: none). */
  settleSeconds: number;
  /** The record counts scenario 5 runs at, ascending. */
  recordCounts: number[];
  /** Also write the results as JSON here (absolute). */
  jsonPath: string | undefined;
  /** A smoke run: short, small, and written to quick.md rather than latest.md. */
  quick: boolean;
  /** Record a CPU profile of the platform process. */
  profile: boolean;
  /** Run only the memory-at-scale section (`--memory`). */
  memoryOnly: boolean;
  /** Checkouts stored for the memory-at-scale section. */
  memoryCheckouts: number;
  /** Run only the reports-at-scale section (`--reports`). */
  reportsOnly: boolean;
  /** Payment records stored for the reports-at-scale section. */
  reportsRecords: number;
}

export const usage = `Usage: npm run bench -- [options]

  --duration <s>      seconds of each measured run (default 10; --quick 3)
  --warmup <s>        seconds of warm-up before each run (default 3; --quick 1)
  --connections <n>   concurrent connections (default 32)
  --soak <s>          seconds of the memory soak of scenario 2 (default 180; --quick 20)
  --settle <s>        seconds to wait before the soak's empty-store memory readings, so the
                      event bus's 2-minute duplicate window has expired (default 125; --quick 0,
                      which leaves the leak verdict unjudged)
  --records <a,b,…>   record counts for scenario 5 (default 10000,100000; --quick 1000,5000)
  --json <path>       also write the results as JSON (for comparing commits)
  --quick             a smoke run with the short defaults above; writes results/quick.md
  --profile           CPU-profile the platform (--cpu-prof) into results/profiles/
  --memory            run only the memory-at-scale section; writes results/memory.md
  --memory-checkouts <n>
                      checkouts stored for the memory-at-scale section (default 1000000;
                      --quick 20000)
  --reports           run only the reports-at-scale section; writes results/reports.md and
                      replaces that section of results/latest.md
  --reports-records <n>
                      payment records stored for the reports-at-scale section (default
                      1000000; --quick 20000)
  --help              this text
`;

const full = { duration: 10, warmup: 3, soak: 180, settle: 125, records: [10_000, 100_000], memoryCheckouts: 1_000_000, reportsRecords: 1_000_000 };
const quick = { duration: 3, warmup: 1, soak: 20, settle: 0, records: [1_000, 5_000], memoryCheckouts: 20_000, reportsRecords: 20_000 };

/** Parses the command line; throws with a message naming the bad flag. Explicit flags win over --quick. */
export function parseOptions(argv: string[]): BenchOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string" },
      soak: { type: "string" },
      settle: { type: "string" },
      records: { type: "string" },
      json: { type: "string" },
      quick: { type: "boolean", default: false },
      profile: { type: "boolean", default: false },
      memory: { type: "boolean", default: false },
      "memory-checkouts": { type: "string" },
      reports: { type: "boolean", default: false },
      "reports-records": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return "help";
  const defaults = values.quick ? quick : full;
  return {
    durationSeconds: number("--duration", values.duration, defaults.duration, 1),
    warmupSeconds: number("--warmup", values.warmup, defaults.warmup, 0),
    connections: number("--connections", values.connections, 32, 1),
    soakSeconds: number("--soak", values.soak, defaults.soak, 1),
    settleSeconds: number("--settle", values.settle, defaults.settle, 0),
    recordCounts: values.records === undefined ? defaults.records : recordCounts(values.records),
    jsonPath: values.json === undefined ? undefined : fromInvocationDirectory(values.json),
    quick: values.quick,
    profile: values.profile,
    memoryOnly: values.memory,
    memoryCheckouts: number("--memory-checkouts", values["memory-checkouts"], defaults.memoryCheckouts, 1),
    reportsOnly: values.reports,
    reportsRecords: number("--reports-records", values["reports-records"], defaults.reportsRecords, 1),
  };
}

function number(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${flag} must be an integer ≥ ${min}, not "${text}"`);
  return value;
}

function recordCounts(text: string): number[] {
  const counts = text.split(",").map((part) => number("--records", part.trim(), 0, 1));
  return [...new Set(counts)].sort((a, b) => a - b);
}

/**
 * `npm run bench -w @bayad/bench` runs in bench/, but a relative --json path means the
 * directory the user typed the command in, which npm passes as INIT_CWD.
 */
function fromInvocationDirectory(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

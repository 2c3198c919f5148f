import { isValid } from "../row.js";
import { count, mark, mib, signedMib } from "../report-format.js";
import { memoryAtScaleFigures } from "./figures.js";
import { checkoutsPerTransaction } from "./seed-stores.js";
import type { MemoryAtScaleResult, Phase, ProcessMemory } from "./result.js";

/** One decimal, with a real minus sign: memory can shrink between two starts. */
const signed = (value: number) => `${value < 0 ? "−" : ""}${Math.abs(value).toFixed(1)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The memory-at-scale section as Markdown: one column per start of the platform (empty, the
 * small size, `--memory-checkouts`), the growth over empty and the targets, then what one stored
 * checkout costs and how fast the stores were seeded.
 */
export function memoryAtScaleSection(result: MemoryAtScaleResult): string[] {
  const figures = memoryAtScaleFigures(result);
  const phases = [result.empty, result.small, result.large];
  const memoryRow = (label: string, read: (phase: Phase) => number | null, target: string) => {
    const values = phases.map(read);
    const cells = values.map((value) => (value === null ? "—" : mib(value)));
    const first = values[0];
    const last = values[values.length - 1];
    const growth = first === null || first === undefined || last === null || last === undefined ? "—" : signedMib(last - first);
    return `| ${label} | ${cells.join(" | ")} | ${growth} | ${target} |`;
  };
  const memory = (moment: "atReady" | "afterPages", field: keyof ProcessMemory) => (phase: Phase) => phase[moment][field];
  const page = (phase: Phase) => (isValid(phase.page) ? phase.page.result.latency.p50.toFixed(2) : `INVALID: ${phase.page.problems.join("; ")}`);

  const lines = [
    `## Memory at scale: ${count(result.checkouts)} checkouts stored`,
    "",
    "The platform on one DATA_DIR, started three times: empty, then after seeding checkouts straight into its payments and records stores " +
      "(as the services store them once a checkout is created and projected), with the platform stopped. " +
      "Memory is read after two forced full collections on each thread; anonymous memory from `/proc/<pid>/smaps_rollup` " +
      "(LMDB's mapped file is not in it: those pages are the kernel's page cache). The records page is scenario 5's request, warmed up and measured the same way.",
    "",
    `| | empty | ${count(result.small.checkouts)} stored | ${count(result.large.checkouts)} stored | at ${count(result.large.checkouts)} − empty | target |`,
    "|---|---:|---:|---:|---:|---|",
    `| start → /readyz 200 | ${phases.map((phase) => seconds(phase.startToReadyMs)).join(" | ")} | — | ${mark(figures.checks.startToReady)} |`,
    memoryRow("heap after GC, at ready", memory("atReady", "heapUsed"), "—"),
    memoryRow("heap after GC, after the page run", memory("afterPages", "heapUsed"), `${mark(figures.checks.heap)} (the larger growth: ${signedMib(figures.heapAboveEmptyBytes)})`),
    memoryRow("anonymous memory, at ready", memory("atReady", "anonymous"), "—"),
    memoryRow(
      "anonymous memory, after the page run",
      memory("afterPages", "anonymous"),
      `${mark(figures.checks.anonymous)}${figures.anonymousAboveEmptyBytes === null ? "" : ` (the larger growth: ${signedMib(figures.anonymousAboveEmptyBytes)})`}`,
    ),
    memoryRow("RSS after the page run (mapped file pages included)", memory("afterPages", "rss"), "shown, not judged"),
    `| records page p50 ms (\`limit=50\`) | ${phases.map(page).join(" | ")} | ${figures.pageP50Ratio === null ? "—" : `${figures.pageP50Ratio.toFixed(2)}× the p50 at ${count(result.small.checkouts)}`} | ${mark(figures.checks.pageP50)} |`,
    `| records page req/s | ${phases.map((phase) => count(phase.page.result.requestsPerSecond)).join(" | ")} | — | — |`,
    `| payment records stored | ${phases.map((phase) => count(phase.recordsStored)).join(" | ")} | — | — |`,
    memoryRow("payments + records stores on disk", (phase) => phase.storesDiskBytes, "—"),
    memoryRow("DATA_DIR on disk", (phase) => phase.dataDirDiskBytes, "—"),
    "",
    `- Per stored checkout: ${count(figures.perCheckout.diskBytes)} B on disk (payments and records stores), ` +
      `${signed(figures.perCheckout.heapBytes)} B of heap` +
      (figures.perCheckout.anonymousBytes === null ? "" : `, ${signed(figures.perCheckout.anonymousBytes)} B of anonymous memory`) +
      " (the larger growth over empty, over the checkouts stored)",
    `- Seeding: ${result.seeding.map((step) => `${count(step.checkouts)} in ${step.seconds.toFixed(1)} s`).join(", ")} ` +
      `(${count(figures.seedingPerSecond)} checkouts/s, ${count(checkoutsPerTransaction)} per transaction in each store)`,
    ...(figures.unjudged === undefined ? [] : [`- **Not judged**: ${figures.unjudged}`]),
    "",
  ];
  return lines;
}

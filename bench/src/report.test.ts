import { describe, expect, it } from "vitest";
import { cpuSection } from "./report.js";
import type { Row } from "./row.js";

describe("cpuSection", () => {
  const row = (label: string, cpu: Row["cpu"]): Row => ({
    id: label,
    label,
    problems: [],
    cpu,
    result: {
      requestsPerSecond: 1,
      latency: { p50: 1, p99: 1, mean: 1, max: 1 },
      requests: 1,
      durationSeconds: 1,
      errors: 0,
      timeouts: 0,
      outcomes: {},
    },
  });

  it("shows each measured row's threads and totals, and leaves out rows without figures", () => {
    const lines = cpuSection(
      [
        row("2 POST /payments/checkouts (fresh key)", { gatewayUs: 150, servicesUs: 200, otherUs: 50, loadGeneratorUs: 60 }),
        row("node:http (bare)", undefined),
        row("1 GET /payments/capabilities", { gatewayUs: 40, servicesUs: null, otherUs: 5, loadGeneratorUs: 20 }),
      ],
      2,
    );
    expect(lines).toContain("| 2 POST /payments/checkouts (fresh key) | 150 | 200 | 50 | 400 | 60 | 460 |");
    expect(lines).toContain("| 1 GET /payments/capabilities | 40 | (on the gateway thread) | 5 | 45 | 20 | 65 |");
    expect(lines.join("\n")).not.toContain("node:http (bare)");
  });

  it("is empty when no row was measured (no /proc)", () => {
    expect(cpuSection([row("1 GET /payments/capabilities", undefined)], 2)).toEqual([]);
  });
});

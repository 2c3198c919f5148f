import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";

/** A logger writing into an array, one raw JSON line per entry. */
function capture(name: string) {
  const lines: string[] = [];
  const logger = createLogger(name, "info", { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

/**
 * How often `"service":` occurs in the raw line: JSON.parse keeps the last of duplicated keys,
 * so only the text shows a key written twice.
 */
const serviceKeys = (line: string) => line.match(/"service":/g)?.length ?? 0;

describe("createLogger", () => {
  it("writes its name as the line's service, once", () => {
    const { logger, lines } = capture("bayad");
    logger.info("started");
    expect(lines).toHaveLength(1);
    expect(serviceKeys(lines[0]!)).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: "bayad", msg: "started" });
  });

  it("writes a child's own service in place of the name, once, and keeps it for the child's children", () => {
    const { logger, lines } = capture("bayad");
    const gateway = logger.child({ service: "gateway" });
    gateway.info("listening");
    gateway.child({ correlationId: "c-1" }).warn({ procedure: "createCheckout" }, "slow");
    for (const line of lines) expect(serviceKeys(line)).toBe(1);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { service: "gateway", msg: "listening" },
      { service: "gateway", correlationId: "c-1", procedure: "createCheckout", msg: "slow" },
    ]);
  });

  it("keeps the name as the service of children that bind other keys", () => {
    const { logger, lines } = capture("payments");
    logger.child({ component: "bus" }).info("connected");
    expect(serviceKeys(lines[0]!)).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: "payments", component: "bus" });
  });

  it("redacts credentials wherever they appear", () => {
    const { logger, lines } = capture("gateway");
    logger.child({ service: "payments" }).info({ request: { apiKey: "sk_test_secret" }, secretKey: "sk_live_x" }, "call");
    expect(lines[0]).not.toContain("sk_test_secret");
    expect(lines[0]).not.toContain("sk_live_x");
    expect(JSON.parse(lines[0]!)).toMatchObject({ request: { apiKey: "[redacted]" }, secretKey: "[redacted]" });
  });
});

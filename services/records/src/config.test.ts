import { describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { readRecordsConfig } from "./config.js";

describe("readRecordsConfig", () => {
  it("takes the cursor secret replicas share", () => {
    const secret = "shared-secret-0123456789-abcdefghij";
    expect(readRecordsConfig({ RECORDS_CURSOR_SECRET: secret }).cursorSecret).toBe(secret);
  });

  it("draws a random secret per process when none is set", () => {
    const first = readRecordsConfig({}).cursorSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readRecordsConfig({ RECORDS_CURSOR_SECRET: "  " }).cursorSecret).not.toBe(first);
  });

  it("refuses a short secret", () => {
    expect(() => readRecordsConfig({ RECORDS_CURSOR_SECRET: "short" })).toThrow(ConfigError);
    expect(() => readRecordsConfig({ RECORDS_CURSOR_SECRET: "short" })).toThrow(/^RECORDS_CURSOR_SECRET must be at least 32 characters$/);
  });

  it("bounds the consumer's batch size, 64 events per transaction unless set", () => {
    expect(readRecordsConfig({}).batchSize).toBe(64);
    expect(readRecordsConfig({ RECORDS_BATCH_SIZE: "1" }).batchSize).toBe(1);
    expect(() => readRecordsConfig({ RECORDS_BATCH_SIZE: "0" })).toThrow(/^RECORDS_BATCH_SIZE must be an integer from 1 to 1000, got "0"$/);
  });
});

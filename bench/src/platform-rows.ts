import { createCheckout } from "./api-client.js";
import type { BenchOptions } from "./cli-options.js";
import { runOtpScenario } from "./otp-scenario.js";
import type { PlatformHandle } from "./platform-handle.js";
import { nodeHttpRowId } from "./bench-results.js";
import { isValid, measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import * as scenarios from "./scenarios.js";
import { emptyStores, seedRecords } from "./seed-records.js";

/**
 * Scenarios 1–6 through the gateway, in the order, each warmed up then measured, and
 * each right after bare node:http at `nodeHttpUrl` with the same settings (its ratio's
 * denominator: the machine's speed drifts over the minutes a run takes, and a baseline
 * measured minutes earlier would move every ratio with it).
 */
export async function platformRows(platform: PlatformHandle, options: BenchOptions, load: LoadSettings, nodeHttpUrl: string): Promise<Row[]> {
  const rows: Row[] = [];
  const apiKey = platform.testApiKey;
  const nodeHttpNow = async (): Promise<number | undefined> => {
    const row = await measureScenario(nodeHttpUrl, scenarios.baseline(nodeHttpRowId, "node:http (bare), for the next row's ratio", "/"), load);
    return isValid(row) ? row.result.requestsPerSecond : undefined;
  };
  const paired = async (measureRow: () => Promise<Row>): Promise<Row> => {
    const nodeHttpBefore = await nodeHttpNow();
    const row = await measureRow();
    return nodeHttpBefore === undefined ? row : { ...row, nodeHttpBefore };
  };
  const measure = (scenario: scenarios.Scenario) => paired(() => measureScenario(platform.gatewayUrl, scenario, load, platform.cpuMeter));

  rows.push(await measure(scenarios.capabilities(apiKey)));
  rows.push(await measure(scenarios.createCheckouts(apiKey)));

  // Used once before the run, so that every measured request (the warm-up's too) is a replay.
  const replayKey = scenarios.freshValue("replay-key");
  const replayBody = scenarios.checkoutBody(scenarios.freshValue("replay-order"));
  await createCheckout(platform, JSON.parse(replayBody), replayKey);
  rows.push(await measure(scenarios.replayCheckout(apiKey, replayKey, replayBody)));

  const readBody: unknown = JSON.parse(scenarios.checkoutBody(scenarios.freshValue("read-order")));
  const checkoutId = await createCheckout(platform, readBody, scenarios.freshValue("read-key"));
  rows.push(await measure(scenarios.getCheckout(apiKey, checkoutId)));

  // From empty stores, so that each size is the one stated (scenario 2 leaves a number of
  // checkouts that depends on the machine's speed).
  await emptyStores(platform);
  for (const target of options.recordCounts) {
    const stored = await seedRecords(platform, target, options.connections);
    rows.push({ ...(await measure(scenarios.listRecords(apiKey, target, stored))), recordsStored: stored });
  }

  rows.push(await paired(() => runOtpScenario(platform, load)));
  return rows;
}

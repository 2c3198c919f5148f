import { createCheckout } from "./api-client.js";
import type { BenchOptions } from "./cli-options.js";
import { runOtpScenario } from "./otp-scenario.js";
import type { PairedBaselines, RowKind } from "./paired-baselines.js";
import type { PlatformHandle } from "./platform-handle.js";
import { measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import * as scenarios from "./scenarios.js";
import { emptyStores, seedRecords } from "./seed-records.js";
import { webhookDeliveryUnderLoad, type WebhookDeliveryResult } from "./webhook-scenario.js";

export interface PlatformRows {
  rows: Row[];
  /** Scenario 7's deliveries (its row is the last of `rows`). */
  webhookDelivery: WebhookDeliveryResult;
}

/**
 * Scenarios 1–7 through the gateway, in the order, each warmed up then measured, and
 * each right after its denominators with the same settings (paired-baselines.ts): bare
 * node:http before every row, the durable floor too before the rows that write.
 */
export async function platformRows(platform: PlatformHandle, options: BenchOptions, load: LoadSettings, paired: PairedBaselines): Promise<PlatformRows> {
  const rows: Row[] = [];
  const apiKey = platform.testApiKey;
  const beside = async (kind: RowKind, measureRow: () => Promise<Row>): Promise<Row> => {
    const denominators = await paired.measureBefore(kind);
    return { ...(await measureRow()), ...denominators };
  };
  const measure = (kind: RowKind, scenario: scenarios.Scenario) => beside(kind, () => measureScenario(platform.gatewayUrl, scenario, load, platform.cpuMeter));

  rows.push(await measure("read", scenarios.capabilities(apiKey)));
  rows.push(await measure("write", scenarios.createCheckouts(apiKey)));

  // Used once before the run, so that every measured request (the warm-up's too) is a replay.
  const replayKey = scenarios.freshValue("replay-key");
  const replayBody = scenarios.checkoutBody(scenarios.freshValue("replay-order"));
  await createCheckout(platform, JSON.parse(replayBody), replayKey);
  rows.push(await measure("read", scenarios.replayCheckout(apiKey, replayKey, replayBody)));

  const readBody: unknown = JSON.parse(scenarios.checkoutBody(scenarios.freshValue("read-order")));
  const checkoutId = await createCheckout(platform, readBody, scenarios.freshValue("read-key"));
  rows.push(await measure("read", scenarios.getCheckout(apiKey, checkoutId)));

  // From empty stores, so that each size is the one stated (scenario 2 leaves a number of
  // checkouts that depends on the machine's speed).
  await emptyStores(platform);
  for (const target of options.recordCounts) {
    const stored = await seedRecords(platform, target, options.connections);
    rows.push({ ...(await measure("read", scenarios.listRecords(apiKey, target, stored))), recordsStored: stored });
  }

  // Almost every answer is a 429 (see the README): a refusal that stores nothing, so node:http alone is its denominator.
  rows.push(await beside("read", () => runOtpScenario(platform, load)));

  const webhookDelivery = await webhookDeliveryUnderLoad(platform, load, paired);
  rows.push(webhookDelivery.row);
  return { rows, webhookDelivery };
}

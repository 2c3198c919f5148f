import type { PlatformHandle } from "./platform-handle.js";
import { runLoad } from "./run-autocannon.js";
import { createCheckouts } from "./scenarios.js";
import { problemsOf } from "./row.js";

/**
 * Brings the records feed up to `target` records by creating the missing checkouts through the
 * gateway (scenario 2's request, `amount` of them), then waits until the feed has projected them
 * all. Returns how many records are stored. Throws when a checkout was refused: the next row
 * would otherwise claim a size it does not have.
 */
export async function seedRecords(platform: PlatformHandle, target: number, connections: number): Promise<number> {
  const present = await platform.countRecords();
  const missing = target - present;
  if (missing > 0) {
    process.stdout.write(`  seeding ${missing.toLocaleString("en-US")} checkouts (${present.toLocaleString("en-US")} → ${target.toLocaleString("en-US")} records) …`);
    const started = Date.now();
    const seeding = createCheckouts(platform.testApiKey);
    const result = await runLoad(platform.gatewayUrl, seeding.plan, { connections, amount: missing });
    const problems = problemsOf(result, seeding.expected);
    if (problems.length > 0) throw new Error(`seeding records failed: ${problems.join("; ")}`);
    process.stdout.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  await platform.drain();
  const stored = await platform.countRecords();
  if (stored < target) throw new Error(`after seeding, ${stored} records are stored, fewer than ${target}`);
  return stored;
}

/** Waits for the feed to catch up, then deletes every stored document but the credentials. */
export async function emptyStores(platform: PlatformHandle): Promise<void> {
  await platform.drain();
  await platform.dropData();
}

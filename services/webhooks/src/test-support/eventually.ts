import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `probe` until it answers something other than undefined, or fails after `deadlineMs`
 * with what it last saw: deliveries happen in the background, so tests wait for them.
 */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, deadlineMs = 15_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`not seen within ${deadlineMs} ms${lastError ? `: ${String(lastError)}` : ""}`);
    await sleep(25);
  }
}

import { randomBytes } from "node:crypto";
import { startPlatform, type InThreadPlatform, type PlatformOptions } from "@bayad/platform";

/**
 * The whole platform in the test's process, as `npm start` runs it but on free ports, with its
 * services on this thread (so a test can count what the stores hold) and quick reconciliation.
 */
export function startTestPlatform(env: Record<string, string> = {}, options: Pick<PlatformOptions, "afterOutcome"> = {}): Promise<InThreadPlatform> {
  return startPlatform({
    servicesThread: "main",
    env: {
      PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      ADMIN_API_KEY: `adm_test_${randomBytes(16).toString("hex")}`,
      IDEMPOTENCY_RECONCILE_INTERVAL_MS: "100",
      IDEMPOTENCY_RETRY_BASE_MS: "50",
      PAYMENTS_RECONCILE_INTERVAL_MS: "100",
      RATE_LIMIT_CREDENTIAL_READS: "100000",
      RATE_LIMIT_CREDENTIAL_WRITES: "100000",
      RATE_LIMIT_PROJECT_READS: "100000",
      RATE_LIMIT_PROJECT_WRITES: "100000",
      ...env,
    },
    ...options,
  });
}

/** `prefix-` and 16 random hex digits: a reference no other test uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString("hex")}`;
}

/** How many checkouts the payments service's store holds with this reference. */
export function checkoutsWithReference(platform: InThreadPlatform, referenceId: string): Promise<number> {
  return platform.stores.payments.collection({ name: "checkouts" }).count({ referenceId });
}

/** Polls `probe` until it answers something other than undefined, or throws after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met before the deadline");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

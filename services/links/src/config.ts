import type { Env } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/events";
import { readSandboxOptions, type SandboxProviderOptions } from "@bayad/provider";

export interface LinksConfig {
  /** The test-mode provider, which hosts the links' payment pages. */
  sandbox: SandboxProviderOptions;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
}

/** The links service's environment; a bad value throws a one-line ConfigError. */
export function readLinksConfig(env: Env): LinksConfig {
  return { sandbox: readSandboxOptions(env), idempotencyWindowMs: readIdempotencyWindowMs(env, "payment") };
}

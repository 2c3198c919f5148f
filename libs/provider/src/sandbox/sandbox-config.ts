import { envInt, envSecret, type Env } from "@bayad/kit";
import type { SandboxProviderOptions } from "./sandbox-provider.js";

/** The sandbox provider's settings, shared by every service that collects payments in test mode. */
export function readSandboxOptions(env: Env): SandboxProviderOptions {
  return {
    // Replicas must share it (their hosted-page links must agree); one process may draw its own.
    secret: envSecret(env, "SANDBOX_SECRET", 16).value,
    delayMs: envInt(env, "SANDBOX_DELAY_MS", 8_000, { min: 0, max: 600_000 }),
    silenceMs: envInt(env, "SANDBOX_SILENCE_MS", 5_000, { min: 0, max: 600_000 }),
  };
}

import { ExponentialBackoff, halfJitterGenerator, type IExponentialBackoffOptions } from "cockatiel";
import { pause } from "./pause.js";

/**
 * The platform's one backoff schedule, for every loop that waits after a failure before trying
 * again (the outbox relay, event consumption, the NATS dial, idempotency reconciliation, races
 * between writers): exponential, capped, with jitter, from cockatiel.
 *
 * The n-th delay (n ≥ 1 failures in a row) is drawn from [d/2, d), d = min(maxDelayMs,
 * initialDelayMs·2^(n−1)). The jitter keeps replicas that failed together (every relay during one
 * NATS outage, two writers that lost the same race) from retrying in step; keeping half of d keeps
 * the growth, where full jitter may draw 0 and spin.
 */
export interface BackoffSettings {
  /** d for the first failure. */
  initialDelayMs: number;
  /** The cap of d: no delay is longer. */
  maxDelayMs: number;
}

function exponentialOptions(settings: BackoffSettings): IExponentialBackoffOptions<number> {
  return { generator: halfJitterGenerator, initialDelay: settings.initialDelayMs, maxDelay: settings.maxDelayMs, exponent: 2 };
}

/**
 * The delay after `failures` failures in a row (at least 1), for loops that count their failures
 * themselves (or keep the count in a record, as reconciliation does).
 */
export function backoffDelay(settings: BackoffSettings, failures: number): number {
  const options = exponentialOptions(settings);
  return options.generator(Math.max(0, failures - 1), options)[0];
}

/**
 * The delay after `failures` failures in a row (at least 1) without jitter: the initial delay,
 * doubling, capped. For waits that are stored and shown (an account's `pausedUntil`, a resource's
 * next read), where one lease holder decides them, so nothing needs spreading apart.
 */
export function doublingDelay(settings: BackoffSettings, failures: number): number {
  return Math.min(settings.initialDelayMs * 2 ** Math.max(0, failures - 1), settings.maxDelayMs);
}

/** The same schedule as a cockatiel backoff, for a cockatiel retry policy. */
export function jitteredBackoff(settings: BackoffSettings): ExponentialBackoff<number> {
  return new ExponentialBackoff(exponentialOptions(settings));
}

/**
 * The schedule after a lost race between writers (a versioned write, a claim, a counter): another
 * writer just landed, so a short, growing, jittered wait (at most 1, 2, 4 … 100 ms) lets it and
 * any others finish instead of racing them again in step.
 */
export const lostRaceBackoff: BackoffSettings = { initialDelayMs: 1, maxDelayMs: 100 };

/** Waits as lostRaceBackoff says after `lostRaces` (≥ 1) lost races in a row. */
export function pauseAfterLostRace(lostRaces: number): Promise<void> {
  return pause(backoffDelay(lostRaceBackoff, lostRaces));
}

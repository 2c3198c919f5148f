import { ConfigError, parseDuration } from "@bayad/kit";

/** Most attempts one event gets automatically; a schedule longer than this is a typo. */
const MAX_ATTEMPTS = 20;
/** The longest wait before one attempt. */
const MAX_DELAY_MS = 7 * 86_400_000;

/**
 * WEBHOOK_RETRY_SCHEDULE: a comma list of durations (`0s,5s,5m,30m,2h,5h,10h,10h`), the delay
 * before each attempt of an event to an endpoint, so its length is the number of attempts. The
 * first is the delay of the first attempt (0s: as soon as the event arrives).
 */
export function parseRetrySchedule(name: string, text: string): number[] {
  const parts = text.split(",").map((part) => part.trim());
  const delays = parts.map((part) => parseDuration(part));
  if (parts.length > MAX_ATTEMPTS || delays.some((delay) => delay === undefined || delay > MAX_DELAY_MS)) {
    throw new ConfigError(
      name,
      `must be a comma list of 1 to ${MAX_ATTEMPTS} durations such as 0s,5s,5m,2h (each at most 7d), got "${text}"`,
    );
  }
  return delays as number[];
}

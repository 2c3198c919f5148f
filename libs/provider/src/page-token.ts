import { AppError, constantTimeEquals } from "@bayad/kit";

/** Whether a hosted-page request carries the page token its resource was given. */
export function pageTokenMatches(expected: string | undefined, given: string): boolean {
  return constantTimeEquals(expected, given);
}

/**
 * The resource a sandbox hosted page shows: it must exist, be a test-mode resource and carry the
 * page token of the URL. Anything else reads as a page that does not exist, so a wrong token
 * tells nothing about the resource.
 */
export function hostedPageResource<T extends { environment: string; pageToken?: string }>(record: T | null, pageToken: string): T {
  if (!record || record.environment !== "test" || !pageTokenMatches(record.pageToken, pageToken)) {
    throw new AppError("RESOURCE_NOT_FOUND", "No such payment page.");
  }
  return record;
}

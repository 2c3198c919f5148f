import { AppError, type Environment } from "@bayad/kit";
import { webhookEventTypes, isWebhookEventType } from "@bayad/public-resources";
import { ipLiteralOf, isLocalhostName, refusedAddress, refusedHost, type Resolver, type TargetPolicy } from "../dispatch/target-policy.js";
import { ALL_EVENTS } from "./webhook-endpoint.js";

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** The API's metadata bounds (payment links' and every other resource's). */
const MAX_METADATA_KEYS = 50;
const MAX_METADATA_KEY_LENGTH = 40;
const MAX_METADATA_VALUE_LENGTH = 500;

/** The problem with a URL's form, if any: an absolute http(s) URL without credentials, within bounds. */
export function urlProblem(url: string): string | undefined {
  if (url.length === 0 || url.length > MAX_URL_LENGTH) return `url: must be 1 to ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url: must be an absolute http or https URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "url: must be an absolute http or https URL";
  if (parsed.username !== "" || parsed.password !== "") return "url: must not contain a user name or password";
  return undefined;
}

/** What a target may reach: private addresses only for test-mode endpoints, and only when allowed. */
export function targetPolicyOf(environment: Environment, allowPrivateTargets: boolean): TargetPolicy {
  return { allowPrivate: allowPrivateTargets && environment === "test" };
}

/**
 * Why Bayad will not post to `url` (a well-formed one) for an endpoint of `environment`, if it
 * will not: live endpoints need https, and a target Bayad must not reach (loopback, private,
 * metadata, …), written as an address, as localhost, or as a name resolving to one, is refused
 * now. A host name is checked again at each delivery, against every address it resolves to then.
 */
export async function urlRefusal(url: string, environment: Environment, policy: TargetPolicy, resolve: Resolver): Promise<string | undefined> {
  const parsed = new URL(url);
  if (environment === "live" && parsed.protocol !== "https:") return "url: must use https for a live endpoint";
  if (isLocalhostName(parsed.hostname) && !policy.allowPrivate) return `url: ${parsed.hostname} is this machine, which webhooks may not reach`;
  const address = ipLiteralOf(parsed);
  const refusal = address !== undefined ? refusedAddress(address, policy) : await refusedHost(parsed.hostname, policy, resolve);
  return refusal ? `url: ${refusal}, which webhooks may not reach` : undefined;
}

/** Checks a URL's form (400) and then its target (422 WEBHOOK_URL_NOT_ALLOWED). */
export async function checkUrl(url: string, environment: Environment, policy: TargetPolicy, resolve: Resolver): Promise<void> {
  const problem = urlProblem(url);
  if (problem) throw new AppError("VALIDATION_FAILED", undefined, { details: [problem] });
  const refusal = await urlRefusal(url, environment, policy, resolve);
  if (refusal) throw new AppError("WEBHOOK_URL_NOT_ALLOWED", undefined, { details: [refusal] });
}

export function enabledEventsProblem(types: readonly string[]): string | undefined {
  if (types.length === 1 && types[0] === ALL_EVENTS) return undefined;
  if (types.length === 0 || types.length > webhookEventTypes.length) {
    return `enabledEvents: must list 1 to ${webhookEventTypes.length} event types, or be ["${ALL_EVENTS}"]`;
  }
  const unknown = types.find((type) => !isWebhookEventType(type));
  if (unknown !== undefined) {
    return unknown === ALL_EVENTS
      ? `enabledEvents: "${ALL_EVENTS}" must be the only element`
      : `enabledEvents: ${JSON.stringify(unknown.slice(0, 64))} is not an event type (one of ${webhookEventTypes.join(", ")})`;
  }
  if (new Set(types).size !== types.length) return "enabledEvents: must not repeat an event type";
  return undefined;
}

export function descriptionProblem(description: string): string | undefined {
  return description.length > MAX_DESCRIPTION_LENGTH ? `description: must be at most ${MAX_DESCRIPTION_LENGTH} characters` : undefined;
}

export function metadataProblem(metadata: Record<string, string>): string | undefined {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_METADATA_KEYS) return `metadata: must have at most ${MAX_METADATA_KEYS} keys`;
  for (const [key, value] of entries) {
    if (key.length < 1 || key.length > MAX_METADATA_KEY_LENGTH || key === "__proto__") {
      return `metadata: keys must be 1 to ${MAX_METADATA_KEY_LENGTH} characters (and not __proto__)`;
    }
    if (value.length > MAX_METADATA_VALUE_LENGTH) return `metadata.${key}: must be at most ${MAX_METADATA_VALUE_LENGTH} characters`;
  }
  return undefined;
}

/** VALIDATION_FAILED naming every field in `problems`, when there is one. */
export function refuseProblems(problems: Array<string | undefined>): void {
  const details = problems.filter((problem): problem is string => problem !== undefined);
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details });
}

import { AppError, isEnvironment, type Environment } from "@bayad/kit";
import type { ProviderName } from "./provider-account.js";

export interface PutProviderAccountInput {
  projectId: string;
  environment: Environment;
  provider: ProviderName;
  secretKey: string;
  /** Deduplicated, in the order given. */
  paymentMethodTypes: string[];
}

/** A PayMongo method code (qrph, card, gcash, paymaya, grab_pay, billease, dob, …): lowercase snake. */
const methodType = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const maxMethodTypes = 32;
/** What follows the mode's prefix: PayMongo's keys are base62 text. */
const keyBody = /^[A-Za-z0-9]{8,200}$/;

/**
 * Checks what a put carries before anything is asked of the provider: the key must be of the
 * environment's mode (sk_live_ only for live, sk_test_ only for test). Details name the field and
 * never quote the key.
 */
export function readPutProviderAccountInput(raw: {
  projectId: string;
  environment: string;
  provider: string;
  secretKey: string;
  paymentMethodTypes: readonly string[];
}): PutProviderAccountInput {
  const details: string[] = [];
  if (!raw.projectId) details.push("projectId: is required");
  if (!isEnvironment(raw.environment)) details.push("environment: must be test or live");
  if (raw.provider !== "paymongo") details.push("provider: must be paymongo");
  if (isEnvironment(raw.environment)) {
    const prefix = raw.environment === "live" ? "sk_live_" : "sk_test_";
    if (!raw.secretKey.startsWith(prefix)) {
      details.push(`secretKey: a ${raw.environment} account takes a PayMongo secret key starting with ${prefix}`);
    } else if (!keyBody.test(raw.secretKey.slice(prefix.length))) {
      details.push(`secretKey: must be ${prefix} followed by 8 to 200 letters and digits`);
    }
  }
  if (raw.paymentMethodTypes.length === 0) details.push("paymentMethodTypes: must list at least one payment method type");
  if (raw.paymentMethodTypes.length > maxMethodTypes) details.push(`paymentMethodTypes: at most ${maxMethodTypes} types`);
  raw.paymentMethodTypes.forEach((type, index) => {
    if (!methodType.test(type) || type.length > 40) {
      details.push(`paymentMethodTypes[${index}]: must be a PayMongo payment method code in lowercase snake case (qrph, gcash, card, …)`);
    }
  });
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", "The provider account is invalid.", { details });
  return {
    projectId: raw.projectId,
    environment: raw.environment as Environment,
    provider: "paymongo",
    secretKey: raw.secretKey,
    paymentMethodTypes: [...new Set(raw.paymentMethodTypes)],
  };
}

/** The project and environment a get, delete or resolve names. */
export function readAccountScope(raw: { projectId: string; environment: string }): { projectId: string; environment: Environment } {
  const details: string[] = [];
  if (!raw.projectId) details.push("projectId: is required");
  if (!isEnvironment(raw.environment)) details.push("environment: must be test or live");
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details });
  return { projectId: raw.projectId, environment: raw.environment as Environment };
}

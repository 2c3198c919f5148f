import { AppError, isEnvironment, type Environment } from "@bayad/kit";
import { XENDIT_CHANNELS, xenditChannelOf } from "@bayad/provider";
import { PROVIDER_NAMES, type ProviderName } from "./provider-account.js";

export interface PutProviderAccountInput {
  projectId: string;
  environment: Environment;
  provider: ProviderName;
  secretKey: string;
  /** Deduplicated, in the order given. Xendit: its channel codes (GCASH, QRPH, …). */
  paymentMethodTypes: string[];
  /** Xendit only: the account's callback verification token. */
  callbackToken?: string;
}

/** A PayMongo method code (qrph, card, gcash, paymaya, grab_pay, billease, dob, …): lowercase snake. */
const methodType = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const maxMethodTypes = 32;
/** What follows the mode's prefix: PayMongo's keys are base62 text. */
const keyBody = /^[A-Za-z0-9]{8,200}$/;
/** What follows a Xendit key's prefix: base62, and older keys are base64 (`+`, `/`, `=`). */
const xenditKeyBody = /^[A-Za-z0-9+/=]{8,200}$/;
/** Xendit's callback verification token, as copied from its dashboard: printable ASCII without spaces. */
const callbackToken = /^[\x21-\x7e]{16,200}$/;

const keyPrefixes: Record<ProviderName, Record<Environment, string>> = {
  paymongo: { test: "sk_test_", live: "sk_live_" },
  xendit: { test: "xnd_development_", live: "xnd_production_" },
};
const providerLabels: Record<ProviderName, string> = { paymongo: "PayMongo", xendit: "Xendit" };

const isProviderName = (value: string): value is ProviderName => (PROVIDER_NAMES as readonly string[]).includes(value);

/**
 * Checks what a put carries before anything is asked of the provider: the key must be of the
 * provider and the environment's mode (PayMongo: sk_live_ / sk_test_; Xendit: xnd_production_ /
 * xnd_development_). A Xendit account needs its callback token, a PayMongo account takes none.
 * Xendit's method types are its channel codes or Bayad's method names (gcash, maya, …), stored as
 * channel codes; none means every channel Bayad serves. Details name the field and never quote
 * the key or the token.
 */
export function readPutProviderAccountInput(raw: {
  projectId: string;
  environment: string;
  provider: string;
  secretKey: string;
  paymentMethodTypes: readonly string[];
  callbackToken?: string;
}): PutProviderAccountInput {
  const details: string[] = [];
  if (!raw.projectId) details.push("projectId: is required");
  if (!isEnvironment(raw.environment)) details.push("environment: must be test or live");
  if (!isProviderName(raw.provider)) details.push(`provider: must be ${PROVIDER_NAMES.join(" or ")}`);
  const provider = isProviderName(raw.provider) ? raw.provider : undefined;
  if (provider && isEnvironment(raw.environment)) {
    const prefix = keyPrefixes[provider][raw.environment];
    if (!raw.secretKey.startsWith(prefix)) {
      details.push(`secretKey: a ${raw.environment} account takes a ${providerLabels[provider]} secret key starting with ${prefix}`);
    } else if (!(provider === "xendit" ? xenditKeyBody : keyBody).test(raw.secretKey.slice(prefix.length))) {
      details.push(`secretKey: must be ${prefix} followed by 8 to 200 ${provider === "xendit" ? "letters, digits, +, / or =" : "letters and digits"}`);
    }
  }
  const token = raw.callbackToken ?? "";
  if (provider === "xendit" && !callbackToken.test(token)) {
    details.push(
      token === ""
        ? "callbackToken: is required for a Xendit account (the callback verification token in Xendit's dashboard)"
        : "callbackToken: must be 16 to 200 printable characters without spaces",
    );
  }
  if (provider === "paymongo" && token !== "") details.push("callbackToken: only Xendit accounts take a callback token (PayMongo's webhook secret comes from PayMongo)");
  if (raw.paymentMethodTypes.length > maxMethodTypes) details.push(`paymentMethodTypes: at most ${maxMethodTypes} types`);
  let paymentMethodTypes = [...new Set(raw.paymentMethodTypes)];
  if (provider === "xendit") {
    const channels = raw.paymentMethodTypes.map((type, index) => {
      const channel = xenditChannelOf(type);
      if (channel === undefined) details.push(`paymentMethodTypes[${index}]: must be a Xendit channel Bayad serves (${XENDIT_CHANNELS.join(", ")}) or its Bayad method name`);
      return channel;
    });
    paymentMethodTypes = [...new Set(channels.filter((channel) => channel !== undefined))];
    if (paymentMethodTypes.length === 0) paymentMethodTypes = [...XENDIT_CHANNELS];
  } else {
    if (raw.paymentMethodTypes.length === 0) details.push("paymentMethodTypes: must list at least one payment method type");
    raw.paymentMethodTypes.forEach((type, index) => {
      if (!methodType.test(type) || type.length > 40) {
        details.push(`paymentMethodTypes[${index}]: must be a PayMongo payment method code in lowercase snake case (qrph, gcash, card, …)`);
      }
    });
  }
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", "The provider account is invalid.", { details });
  return {
    projectId: raw.projectId,
    environment: raw.environment as Environment,
    provider: provider!,
    secretKey: raw.secretKey,
    paymentMethodTypes,
    ...(provider === "xendit" ? { callbackToken: token } : {}),
  };
}

/** The project, environment and (optionally: "" for none) provider a get, delete or resolve names. */
export function readAccountScope(raw: { projectId: string; environment: string; provider?: string }): {
  projectId: string;
  environment: Environment;
  provider?: ProviderName;
} {
  const details: string[] = [];
  if (!raw.projectId) details.push("projectId: is required");
  if (!isEnvironment(raw.environment)) details.push("environment: must be test or live");
  const provider = raw.provider ?? "";
  if (provider !== "" && !isProviderName(provider)) details.push(`provider: must be ${PROVIDER_NAMES.join(" or ")}`);
  if (details.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details });
  return { projectId: raw.projectId, environment: raw.environment as Environment, ...(provider !== "" ? { provider: provider as ProviderName } : {}) };
}

import { create } from "@bufbuild/protobuf";
import { CapabilitiesSchema, type Capabilities } from "@bayad/proto";
import { CURRENCY } from "@bayad/kit";
import type { IntentMethodOption } from "@bayad/provider";
import { protoMethod } from "./payment-intents/payment-intent.js";

/**
 * What this payments service can do right now. Resources are listed by their public path name
 * and only once the service serves them; payment methods are those of the provider of the
 * caller's environment: `paymentMethods` in the provider's own codes (what its checkouts take),
 * `paymentIntentMethods` the ways an intent can be paid by redirect there, in Bayad's names, one
 * entry per bank for online banking (the sandbox: all of them; a PayMongo account: those of its
 * enabled types that PayMongo's payment intents take).
 */
export const servedResources = ["customers", "checkouts", "intents", "refunds"] as const;

export function describeCapabilities(paymentMethods: readonly string[], paymentIntentMethods: readonly IntentMethodOption[]): Capabilities {
  return create(CapabilitiesSchema, {
    currency: CURRENCY,
    paymentMethods: [...paymentMethods],
    resources: [...servedResources],
    paymentIntentMethods: paymentIntentMethods.map((option) => ({ type: protoMethod[option.type], bankCode: option.bankCode ?? "" })),
  });
}

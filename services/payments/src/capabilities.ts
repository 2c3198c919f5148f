import { create } from "@bufbuild/protobuf";
import { CapabilitiesSchema, type Capabilities } from "@bayad/proto";
import { CURRENCY } from "@bayad/kit";

/**
 * What this payments service can do right now. Resources are listed by their public path name
 * and only once the service serves them; payment methods are those of the provider of the
 * caller's environment.
 */
export const servedResources = ["customers", "checkouts", "intents", "refunds"] as const;

export function describeCapabilities(paymentMethods: readonly string[]): Capabilities {
  return create(CapabilitiesSchema, {
    currency: CURRENCY,
    paymentMethods: [...paymentMethods],
    resources: [...servedResources],
  });
}

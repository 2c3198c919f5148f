import type { CallOptions, Client } from "@connectrpc/connect";
import type { BillingService, OtpService, ProviderAccountsService, ResealCounts as ResealCountsMessage, WebhooksService } from "@bayad/proto";
import { addResealCounts, type ResealCounts, type SealingKeys } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { resealSigningKeys } from "../auth/signing-keys.js";
import type { IdempotencyRecords } from "@bayad/idempotency";

/** What one component's reseal found, as the admin API answers it. */
export interface ComponentReseal extends ResealCounts {
  component: "gateway" | "payments" | "webhooks" | "otp" | "billing";
}

export interface SecretsResealDeps {
  store: Store;
  /** The GATEWAY_SECRETS ring. */
  keys: SealingKeys;
  records: IdempotencyRecords;
  providerAccounts: Client<typeof ProviderAccountsService>;
  /** Absent when the service is not deployed. */
  webhooks?: Client<typeof WebhooksService>;
  otp?: Client<typeof OtpService>;
  billing?: Client<typeof BillingService>;
}

const countsOf = (message: ResealCountsMessage | undefined): ResealCounts => ({
  resealed: message?.resealed ?? 0,
  current: message?.current ?? 0,
  unreadable: message?.unreadable ?? 0,
});

/**
 * Moves every sealed value of every component to the newest key of its ring (`bayad secrets
 * reseal`): the gateway its own collections (idempotency records, the development issuer's
 * signing keys), each service holding sealed values over its rpc. Safe to repeat and beside
 * traffic: each component writes conditionally, and a second run finds everything current.
 */
export function createSecretsReseal(deps: SecretsResealDeps) {
  return async function resealSecrets(call: CallOptions): Promise<ComponentReseal[]> {
    const gateway = addResealCounts(await deps.records.resealSecrets(), await resealSigningKeys(deps.store, deps.keys));
    const results: ComponentReseal[] = [
      { component: "gateway", ...gateway },
      { component: "payments", ...countsOf((await deps.providerAccounts.resealProviderAccountSecrets({}, call)).counts) },
    ];
    if (deps.webhooks) results.push({ component: "webhooks", ...countsOf((await deps.webhooks.resealWebhookEndpointSecrets({}, call)).counts) });
    if (deps.otp) results.push({ component: "otp", ...countsOf((await deps.otp.resealOtpMessages({}, call)).counts) });
    if (deps.billing) results.push({ component: "billing", ...countsOf((await deps.billing.resealBillingMessages({}, call)).counts) });
    return results;
  };
}

import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ProviderAccountsService } from "@bayad/proto";
import { clientTracingInterceptors, withClientInterceptors } from "@bayad/kit";
import { createResolvedProviderAccounts, type ResolvedProviderAccounts } from "@bayad/provider";
import type { BillingConfig } from "./config.js";

/** How long a look-up of a provider account may take before the request or the billing clock gives up. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * The projects' provider accounts, resolved by the payments service (which owns them) over
 * `payments` (an in-process transport) or PAYMENTS_URL; undefined when neither is given.
 */
export function providerAccountsOf(config: BillingConfig, payments: Transport | undefined): ResolvedProviderAccounts | undefined {
  // The request's trace goes on into the payments service (nothing when traces are off).
  const interceptors = clientTracingInterceptors();
  const transport = payments
    ? withClientInterceptors(payments, interceptors)
    : config.paymentsUrl !== undefined
      ? createGrpcTransport({ baseUrl: config.paymentsUrl, interceptors })
      : undefined;
  if (!transport) return undefined;
  const client = createClient(ProviderAccountsService, transport);
  return createResolvedProviderAccounts({
    resolve: (request) => client.resolveProviderAccount(request, { timeoutMs: RESOLVE_TIMEOUT_MS }),
    secretsKey: config.providerAccounts.secretsKey,
    paymongoApiBase: config.providerAccounts.paymongoApiBase,
  });
}

import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ProviderAccountsService } from "@bayad/proto";
import { clientTracingInterceptors, withClientInterceptors } from "@bayad/kit";
import type { ProviderAccountsConfig } from "./provider-accounts-config.js";
import { createResolvedProviderAccounts, type ResolvedProviderAccounts } from "./resolved-provider-accounts.js";

/** How long a look-up of a provider account may take before the request (or the billing clock) gives up. */
const RESOLVE_TIMEOUT_MS = 5_000;

export interface PaymentsAddress {
  /** The payments service in this process (the one-process platform). */
  payments?: Transport;
  /** PAYMENTS_URL: the payments service's gRPC address, in services mode. */
  paymentsUrl?: string;
}

/**
 * The projects' provider accounts for a service that does not own them (links, billing): resolved
 * by the payments service, which does, over `payments` or PAYMENTS_URL; undefined when neither is
 * given.
 */
export function providerAccountsOf(config: ProviderAccountsConfig, address: PaymentsAddress): ResolvedProviderAccounts | undefined {
  // The request's trace goes on into the payments service (nothing when traces are off).
  const interceptors = clientTracingInterceptors();
  const transport = address.payments
    ? withClientInterceptors(address.payments, interceptors)
    : address.paymentsUrl !== undefined
      ? createGrpcTransport({ baseUrl: address.paymentsUrl, interceptors })
      : undefined;
  if (!transport) return undefined;
  const client = createClient(ProviderAccountsService, transport);
  return createResolvedProviderAccounts({
    resolve: (request) => client.resolveProviderAccount(request, { timeoutMs: RESOLVE_TIMEOUT_MS }),
    secretsKey: config.secretsKey,
    paymongoApiBase: config.paymongoApiBase,
    xenditApiBase: config.xenditApiBase,
  });
}

import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BillingService, Health, LinksService, OtpService, PaymentsService, ProviderAccountsService, ProviderRoutingService, RecordsService, WebhooksService } from "@bayad/proto";
import { clientTracingInterceptors, withClientInterceptors } from "@bayad/kit";
import { GuardedSessionManager } from "./guarded-session-manager.js";

/**
 * How to reach each service: where it listens (http://host:port, gRPC over HTTP/2), or a Connect
 * transport to it in this process (the one-process platform). A service not deployed is absent.
 */
export type ServiceAddress = string | Transport;

export interface ServiceAddresses {
  payments: ServiceAddress;
  billing?: ServiceAddress;
  links?: ServiceAddress;
  records?: ServiceAddress;
  otp?: ServiceAddress;
  webhooks?: ServiceAddress;
}

export interface ServiceClients {
  payments: Client<typeof PaymentsService>;
  /** The payments service's provider accounts (the admin API's), on the payments service's address. */
  providerAccounts: Client<typeof ProviderAccountsService>;
  /** The payments service's provider routing (the admin API's), on the payments service's address. */
  providerRouting: Client<typeof ProviderRoutingService>;
  billing?: Client<typeof BillingService>;
  links?: Client<typeof LinksService>;
  records?: Client<typeof RecordsService>;
  otp?: Client<typeof OtpService>;
  webhooks?: Client<typeof WebhooksService>;
  /**
   * grpc.health.v1 of each service, by name, for readiness: the client, and the service name it
   * asks about (one transport may carry several services, as the one-process platform's does).
   */
  health: Record<string, { client: Client<typeof Health>; service: string }>;
}

/** Each service's descriptor, by the name its address goes under. */
const descriptors = {
  payments: PaymentsService,
  billing: BillingService,
  links: LinksService,
  records: RecordsService,
  otp: OtpService,
  webhooks: WebhooksService,
} as const;

type ServiceName = keyof typeof descriptors;

function grpcTransport(baseUrl: string, interceptors: Interceptor[]): Transport {
  return createGrpcTransport({ baseUrl, sessionManager: new GuardedSessionManager(baseUrl), interceptors });
}

/** gRPC over HTTP/2 to every service: the path that is tested is the path that is deployed. */
export function createServiceClients(addresses: ServiceAddresses): ServiceClients {
  // The request's trace context into each call's metadata, over every transport; none when traces are off.
  const interceptors = clientTracingInterceptors();
  const transports = new Map(
    (Object.entries(addresses) as Array<[ServiceName, ServiceAddress | undefined]>)
      .filter((entry): entry is [ServiceName, ServiceAddress] => entry[1] !== undefined)
      .map(([name, address]) => [
        name,
        typeof address === "string" ? grpcTransport(address, interceptors) : withClientInterceptors(address, interceptors),
      ]),
  );
  const clientOf = <N extends ServiceName>(name: N): Client<(typeof descriptors)[N]> | undefined => {
    const transport = transports.get(name);
    return transport ? createClient(descriptors[name], transport) : undefined;
  };
  return {
    payments: clientOf("payments")!,
    providerAccounts: createClient(ProviderAccountsService, transports.get("payments")!),
    providerRouting: createClient(ProviderRoutingService, transports.get("payments")!),
    billing: clientOf("billing"),
    links: clientOf("links"),
    records: clientOf("records"),
    otp: clientOf("otp"),
    webhooks: clientOf("webhooks"),
    health: Object.fromEntries(
      [...transports].map(([name, transport]) => [name, { client: createClient(Health, transport), service: descriptors[name].typeName }]),
    ),
  };
}

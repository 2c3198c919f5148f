import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BillingService, Health, LinksService, OtpService, PaymentsService, RecordsService } from "@bayad/proto";
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
}

export interface ServiceClients {
  payments: Client<typeof PaymentsService>;
  billing?: Client<typeof BillingService>;
  links?: Client<typeof LinksService>;
  records?: Client<typeof RecordsService>;
  otp?: Client<typeof OtpService>;
  /**
   * grpc.health.v1 of each service, by name, for readiness: the client, and the service name it
   * asks about (one transport may carry several services, as the one-process platform's does).
   */
  health: Record<string, { client: Client<typeof Health>; service: string }>;
}

const serviceTypeNames: Record<keyof ServiceAddresses, string> = {
  payments: PaymentsService.typeName,
  billing: BillingService.typeName,
  links: LinksService.typeName,
  records: RecordsService.typeName,
  otp: OtpService.typeName,
};

function grpcTransport(baseUrl: string): Transport {
  return createGrpcTransport({ baseUrl, sessionManager: new GuardedSessionManager(baseUrl) });
}

/** gRPC over HTTP/2 to every service: the path that is tested is the path that is deployed. */
export function createServiceClients(addresses: ServiceAddresses): ServiceClients {
  const transports = Object.fromEntries(
    Object.entries(addresses)
      .filter((entry): entry is [string, ServiceAddress] => entry[1] !== undefined)
      .map(([name, address]) => [name, typeof address === "string" ? grpcTransport(address) : address]),
  );
  const clientOf = <S extends Parameters<typeof createClient>[0]>(service: S, name: string) =>
    transports[name] ? createClient(service, transports[name]) : undefined;
  return {
    payments: createClient(PaymentsService, transports.payments!),
    billing: clientOf(BillingService, "billing"),
    links: clientOf(LinksService, "links"),
    records: clientOf(RecordsService, "records"),
    otp: clientOf(OtpService, "otp"),
    health: Object.fromEntries(
      Object.entries(transports).map(([name, transport]) => [
        name,
        { client: createClient(Health, transport), service: serviceTypeNames[name as keyof ServiceAddresses] },
      ]),
    ),
  };
}

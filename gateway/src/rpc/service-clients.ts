import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BillingService, Health, LinksService, OtpService, PaymentsService, RecordsService } from "@bayad/proto";

/** Where each service listens (http://host:port); a service not yet deployed is absent. */
export interface ServiceAddresses {
  payments: string;
  billing?: string;
  links?: string;
  records?: string;
  otp?: string;
}

export interface ServiceClients {
  payments: Client<typeof PaymentsService>;
  billing?: Client<typeof BillingService>;
  links?: Client<typeof LinksService>;
  records?: Client<typeof RecordsService>;
  otp?: Client<typeof OtpService>;
  /** grpc.health.v1 of each service, by name, for readiness. */
  health: Record<string, Client<typeof Health>>;
}

/** gRPC over HTTP/2 to every service: the path that is tested is the path that is deployed. */
export function createServiceClients(addresses: ServiceAddresses): ServiceClients {
  const transports = Object.fromEntries(
    Object.entries(addresses)
      .filter((entry): entry is [string, string] => typeof entry[1] === "string")
      .map(([name, baseUrl]) => [name, createGrpcTransport({ baseUrl })]),
  );
  const clientOf = <S extends Parameters<typeof createClient>[0]>(service: S, name: string) =>
    transports[name] ? createClient(service, transports[name]) : undefined;
  return {
    payments: createClient(PaymentsService, transports.payments!),
    billing: clientOf(BillingService, "billing"),
    links: clientOf(LinksService, "links"),
    records: clientOf(RecordsService, "records"),
    otp: clientOf(OtpService, "otp"),
    health: Object.fromEntries(Object.entries(transports).map(([name, transport]) => [name, createClient(Health, transport)])),
  };
}

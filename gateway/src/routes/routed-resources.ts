import type { ServiceClients } from "../rpc/service-clients.js";

/**
 * The public resources, by path name, of the services other than payments. The payments service
 * reports its own in its capabilities; the gateway adds these for each service it has an address
 * for, so `resources` lists what this API serves and nothing that would answer 501.
 */
const resourcesByService = {
  billing: ["subscriptions", "plans", "invoices"],
  links: ["payment-links"],
  records: ["records"],
  webhooks: ["webhook-endpoints", "events"],
} as const;

export function routedResources(clients: Pick<ServiceClients, keyof typeof resourcesByService>): string[] {
  return Object.entries(resourcesByService).flatMap(([service, resources]) =>
    clients[service as keyof typeof resourcesByService] ? [...resources] : [],
  );
}

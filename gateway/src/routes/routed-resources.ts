import type { ServiceClients } from "../rpc/service-clients.js";

type RoutedService = "billing" | "links" | "records" | "webhooks";

/**
 * The public resources, by path name, of the services other than payments. The payments service
 * reports its own in its capabilities; the gateway adds these for each service it has an address
 * for, so `resources` lists what this API serves and nothing that would answer 501.
 */
const resourcesByService: ReadonlyArray<readonly [RoutedService, readonly string[]]> = [
  ["billing", ["subscriptions", "plans", "invoices"]],
  ["links", ["payment-links"]],
  ["records", ["records"]],
  ["webhooks", ["webhook-endpoints", "events"]],
];

export function routedResources(clients: Pick<ServiceClients, RoutedService>): string[] {
  return resourcesByService.flatMap(([service, resources]) => (clients[service] ? [...resources] : []));
}

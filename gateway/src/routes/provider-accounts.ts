import type { Client } from "@connectrpc/connect";
import type { ProviderAccountsService, ProviderRoutingService } from "@bayad/proto";

export type ProviderAccountsClient = Client<typeof ProviderAccountsService>;
export type ProviderRoutingClient = Client<typeof ProviderRoutingService>;

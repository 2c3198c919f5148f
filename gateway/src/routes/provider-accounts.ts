import type { Client } from "@connectrpc/connect";
import type { ProviderAccountsService } from "@bayad/proto";

export type ProviderAccountsClient = Client<typeof ProviderAccountsService>;

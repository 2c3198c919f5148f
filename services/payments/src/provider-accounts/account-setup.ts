/**
 * What putting and removing a provider account asks of the provider (check a key; register, read,
 * enable and disable a webhook): PayMongo's adapter implements it.
 */
export type { ProviderAccountSetup } from "@bayad/provider";

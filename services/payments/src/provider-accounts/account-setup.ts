/**
 * What putting and removing a provider account asks of the provider: check a key, register,
 * read, enable and disable a webhook. The PayMongo adapter implements it (@bayad/provider's
 * createPaymongoAccountSetup); this is its shape as the payments service uses it, so that the
 * service depends on the calls it makes, not on the adapter's module.
 */
export interface ProviderAccountSetup {
  /** Throws AppError VALIDATION_FAILED (details naming secretKey) on a refused key, PROVIDER_UNAVAILABLE when unreachable. */
  checkKey(secretKey: string): Promise<void>;
  registerWebhook(secretKey: string, url: string): Promise<{ webhookId: string; webhookSecret: string; status: "enabled" | "disabled" }>;
  getWebhook(secretKey: string, webhookId: string): Promise<{ status: "enabled" | "disabled"; disabledReason?: string; url: string }>;
  enableWebhook(secretKey: string, webhookId: string): Promise<void>;
  disableWebhook(secretKey: string, webhookId: string): Promise<void>;
}

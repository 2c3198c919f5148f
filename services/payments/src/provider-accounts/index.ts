/** What other parts of the payments service (and its package's users) need of provider accounts. */
export type { ProviderAccountSetup } from "./account-setup.js";
export type { ProviderAccountRecord, ProviderAccountState, ProviderName, ProviderWebhookState } from "./provider-account.js";
export { providerAccountToProto } from "./provider-account.js";
export { createProviderAccountsRepository, type ProviderAccountsRepository } from "./provider-accounts-repository.js";
export { providerWebhookUrl, type ProviderAccountsDeps } from "./provider-accounts.js";
export { createProviderAccountsService } from "./provider-accounts-service.js";
export {
  deferAccount,
  isDueForKeyCheck,
  isUsable,
  keyRefusalBackoffMs,
  pauseForRefusedKey,
  resumeAccount,
  type AccountStatusDeps,
} from "./account-status.js";

import { AppError } from "@bayad/kit";
import type { ProviderAccountSetup } from "./account-setup.js";

/** Placeholder until the PayMongo adapter's account setup is exported by @bayad/provider. */
export function defaultAccountSetup(_apiBase: string): ProviderAccountSetup {
  const unavailable = async (): Promise<never> => {
    throw new AppError("SERVICE_UNAVAILABLE", "The PayMongo adapter is not available in this build.");
  };
  return { checkKey: unavailable, registerWebhook: unavailable, getWebhook: unavailable, enableWebhook: unavailable, disableWebhook: unavailable };
}

import { randomBytes } from "node:crypto";
import { AppError } from "@bayad/kit";
import { keyHint } from "../provider-errors.js";
import { createXenditClient } from "./xendit-client.js";
import { XenditKeyRefusedError, XenditRejectedError } from "./xendit-errors.js";

/** What putting a Xendit account asks of Xendit: only that its key works (callback URLs are set in Xendit's dashboard). */
export interface XenditAccountSetup {
  /**
   * Throws AppError VALIDATION_FAILED with details ["secretKey: …"] when Xendit refuses the key
   * (401, or 403: the key may not read payment requests), PROVIDER_UNAVAILABLE when Xendit
   * cannot be reached. The refusal keeps Xendit's error as its cause (never sent).
   */
  checkKey(secretKey: string): Promise<void>;
}

export interface XenditAccountSetupOptions {
  apiBase: string;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
}

const refused = (secretKey: string, why: string, cause: unknown) =>
  new AppError("VALIDATION_FAILED", "Xendit refused the secret key.", {
    cause,
    details: [`secretKey: Xendit ${why} the key ending in ${keyHint(secretKey).slice(1)}`],
  });

/**
 * Checks a Xendit key before an account is stored. Xendit documents no endpoint for checking a
 * key, so this reads a payment request that cannot exist (`pr-` and 32 random hex digits) with
 * it: 404 means Xendit accepted the key and found nothing, 401 that it refused the key. Nothing
 * is made at Xendit either way. Each call makes and closes its own connection pool: puts are rare.
 */
export function createXenditAccountSetup(options: XenditAccountSetupOptions): XenditAccountSetup {
  return {
    async checkKey(secretKey) {
      const client = createXenditClient({ ...options, secretKey });
      try {
        await client.get(`/v3/payment_requests/pr-${randomBytes(16).toString("hex")}`, "checkKey");
      } catch (error) {
        if (error instanceof XenditRejectedError && error.failure === "not_found") return;
        if (error instanceof XenditKeyRefusedError) throw refused(secretKey, "refused", error);
        if (error instanceof XenditRejectedError && error.providerStatus === 403) throw refused(secretKey, "does not let payment requests be read with", error);
        throw error;
      } finally {
        await client.close().catch(() => undefined);
      }
    },
  };
}

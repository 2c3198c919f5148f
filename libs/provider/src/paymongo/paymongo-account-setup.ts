import { AppError } from "@bayad/kit";
import { ProviderNoAnswerError } from "../port.js";
import { pathOf, PAYMONGO_PATHS } from "./paymongo-endpoints.js";
import { providerUnavailable } from "../provider-errors.js";
import { PaymongoKeyRefusedError, PaymongoRejectedError } from "./paymongo-errors.js";
import { createPaymongoHttp, type PaymongoCall, type PaymongoDocument } from "./paymongo-http.js";
import { PAYMONGO_DOCUMENTED_WEBHOOK_EVENTS, PAYMONGO_WEBHOOK_EVENTS } from "./paymongo-event.js";
import { paymongoIdempotencyKey } from "./paymongo-idempotency-key.js";
import { resourceOf, resourcesOf, textAt, type PaymongoResource } from "./paymongo-resources.js";

export interface ProviderAccountSetup {
  /** A cheap authenticated call; throws AppError VALIDATION_FAILED with details ["secretKey: …"] when PayMongo refuses the key, PROVIDER_UNAVAILABLE when it cannot be reached. */
  checkKey(secretKey: string): Promise<void>;
  /**
   * Registers Bayad's webhook at `url` for PAYMONGO_WEBHOOK_EVENTS. Idempotent per URL: a webhook
   * PayMongo already has at that URL (an earlier attempt whose answer was lost) is taken over,
   * enabled if it was disabled, instead of making a second one.
   */
  registerWebhook(secretKey: string, url: string): Promise<{ webhookId: string; webhookSecret: string; status: "enabled" | "disabled" }>;
  getWebhook(secretKey: string, webhookId: string): Promise<{ status: "enabled" | "disabled"; disabledReason?: string; url: string }>;
  enableWebhook(secretKey: string, webhookId: string): Promise<void>;
  disableWebhook(secretKey: string, webhookId: string): Promise<void>;
}

export interface PaymongoAccountSetupOptions {
  apiBase: string;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
}

const statusOf = (webhook: PaymongoResource): "enabled" | "disabled" =>
  textAt(webhook.attributes, "status") === "enabled" ? "enabled" : "disabled";

/**
 * What the provider-accounts admin API calls to set a PayMongo account up: check its key,
 * register, read, enable and disable Bayad's webhook. Each call takes the key it acts with; none
 * keeps it. A key PayMongo refuses is VALIDATION_FAILED naming `secretKey` (by its last four
 * characters only); PayMongo out of reach is PROVIDER_UNAVAILABLE.
 */
export function createPaymongoAccountSetup(options: PaymongoAccountSetupOptions): ProviderAccountSetup {
  const http = createPaymongoHttp({ ...options, readRetries: 2 });

  const send = async (secretKey: string, call: PaymongoCall): Promise<PaymongoDocument> => {
    try {
      return await http.send(secretKey, call);
    } catch (error) {
      if (error instanceof PaymongoKeyRefusedError) {
        throw new AppError("VALIDATION_FAILED", "PayMongo refused the secret key.", {
          // Kept (never sent) so that a caller can tell a refused key from other refusals.
          cause: error,
          details: [`secretKey: PayMongo refused the key${error.keyHint.length > 1 ? ` ending in ${error.keyHint.slice(1)}` : ""}`],
        });
      }
      throw error;
    }
  };

  const listWebhooks = async (secretKey: string) =>
    resourcesOf(await send(secretKey, { method: "GET", path: PAYMONGO_PATHS.webhooks, operation: "listWebhooks" }));

  const setEnabled = async (secretKey: string, webhookId: string, action: "enable" | "disable") => {
    // Enabling an enabled webhook changes nothing, so a lost answer may be sent again.
    await send(secretKey, { method: "POST", path: pathOf(PAYMONGO_PATHS.webhooks, webhookId, action), operation: `${action}Webhook`, idempotent: true });
  };

  const registered = (webhook: PaymongoResource) => {
    const webhookSecret = textAt(webhook.attributes, "secret_key");
    if (webhookSecret === undefined) throw providerUnavailable("PayMongo answered the webhook registration without its secret.");
    return { webhookId: webhook.id, webhookSecret, status: statusOf(webhook) };
  };

  // The Idempotency-Key comes from the URL and the events (no Bayad request key reaches here): a
  // registration whose answer was lost is sent again and answered with the webhook it made, and
  // the retry with fewer events is another request, under another key.
  const create = async (secretKey: string, url: string, events: readonly string[]) => {
    const operation = "registerWebhook";
    const idempotencyKey = paymongoIdempotencyKey(url, url, operation, `webhook:${events.join(",")}`);
    return resourceOf(await send(secretKey, { method: "POST", path: PAYMONGO_PATHS.webhooks, operation, attributes: { url, events }, idempotencyKey }), operation);
  };

  const createWebhook = async (secretKey: string, url: string): Promise<PaymongoResource> => {
    try {
      return await create(secretKey, url, PAYMONGO_WEBHOOK_EVENTS);
    } catch (error) {
      // qrph.expired is not in PayMongo's own list of events: without it, reconciliation still sees expiries.
      const refusedEvents =
        error instanceof PaymongoRejectedError && error.providerErrors.some((item) => `${item.field ?? ""} ${item.detail}`.includes("events"));
      if (refusedEvents) return create(secretKey, url, PAYMONGO_DOCUMENTED_WEBHOOK_EVENTS);
      throw error;
    }
  };

  return {
    async checkKey(secretKey) {
      await listWebhooks(secretKey);
    },

    async registerWebhook(secretKey, url) {
      const existing = (await listWebhooks(secretKey)).find((webhook) => textAt(webhook.attributes, "url") === url);
      if (existing && textAt(existing.attributes, "secret_key") !== undefined) {
        if (statusOf(existing) === "disabled") await setEnabled(secretKey, existing.id, "enable");
        return { ...registered(existing), status: "enabled" };
      }
      try {
        return registered(await createWebhook(secretKey, url));
      } catch (error) {
        if (!(error instanceof ProviderNoAnswerError)) throw error;
        // The answer was lost: the webhook was made or it was not, and the list says which.
        const made = (await listWebhooks(secretKey)).find((webhook) => textAt(webhook.attributes, "url") === url);
        if (made) return registered(made);
        throw providerUnavailable("PayMongo did not answer the webhook registration; nothing was registered.", { cause: error });
      }
    },

    async getWebhook(secretKey, webhookId) {
      const operation = "getWebhook";
      const webhook = resourceOf(await send(secretKey, { method: "GET", path: pathOf(PAYMONGO_PATHS.webhooks, webhookId), operation }), operation);
      const disabledReason = textAt(webhook.attributes, "disabled_reason");
      return { status: statusOf(webhook), url: textAt(webhook.attributes, "url") ?? "", ...(disabledReason !== undefined ? { disabledReason } : {}) };
    },

    enableWebhook: (secretKey, webhookId) => setEnabled(secretKey, webhookId, "enable"),
    disableWebhook: (secretKey, webhookId) => setEnabled(secretKey, webhookId, "disable"),
  };
}

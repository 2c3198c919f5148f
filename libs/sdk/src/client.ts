import { defaultRetrySettings, type RetryOptions } from "./retry-policy.js";
import { Transport } from "./transport.js";
import type { Fetch } from "./retrying-fetch.js";
import { Capabilities } from "./resources/capabilities.js";
import { Checkouts } from "./resources/checkouts.js";
import { Customers } from "./resources/customers.js";
import { Events } from "./resources/events.js";
import { Invoices } from "./resources/invoices.js";
import { Otp } from "./resources/otp.js";
import { PaymentIntents } from "./resources/payment-intents.js";
import { PaymentLinks } from "./resources/payment-links.js";
import { Plans } from "./resources/plans.js";
import { Records } from "./resources/records.js";
import { Refunds } from "./resources/refunds.js";
import { Reports } from "./resources/reports.js";
import { Subscriptions } from "./resources/subscriptions.js";
import { TestHelpers } from "./resources/test-helpers.js";
import { WebhookEndpoints } from "./resources/webhook-endpoints.js";
import { webhooks } from "./webhooks.js";

export interface BayadOptions extends RetryOptions {
  /** A project API key (`sk_test_…`, `sk_live_…`) or a service token. */
  apiKey: string;
  /** The gateway's base address (default `http://localhost:8080`, what `npm start` listens on). */
  baseUrl?: string;
  /** Headers sent on every request (a caller's `X-Correlation-Id`, say). */
  headers?: Record<string, string>;
  /** The fetch to send with (default the global one); it gets one Request per attempt. */
  fetch?: Fetch;
}

/**
 * The Bayad API client: one property per resource, every public operation of the OpenAPI
 * document (`/api/v1`) a method, typed by the types generated from that document. Every
 * POST, PATCH and DELETE carries an Idempotency-Key (made per call unless given) that its
 * retries reuse; failures come back as BayadError.
 */
export class Bayad {
  readonly checkouts: Checkouts;
  readonly paymentIntents: PaymentIntents;
  readonly customers: Customers;
  readonly refunds: Refunds;
  readonly subscriptions: Subscriptions;
  readonly invoices: Invoices;
  readonly records: Records;
  readonly reports: Reports;
  readonly capabilities: Capabilities;
  readonly paymentLinks: PaymentLinks;
  readonly plans: Plans;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly otp: Otp;
  readonly testHelpers: TestHelpers;
  /** Verifies a delivery to your webhook receiver (needs no API call). */
  readonly webhooks = webhooks;

  constructor(options: BayadOptions) {
    const { apiKey, baseUrl, headers, fetch, ...retry } = options;
    const transport = new Transport({
      apiKey,
      baseUrl: baseUrl ?? "http://localhost:8080",
      headers: headers ?? {},
      fetch: fetch ?? ((request) => globalThis.fetch(request)),
      retry: { ...defaultRetrySettings, ...Object.fromEntries(Object.entries(retry).filter(([, v]) => v !== undefined)) },
    });
    this.checkouts = new Checkouts(transport);
    this.paymentIntents = new PaymentIntents(transport);
    this.customers = new Customers(transport);
    this.refunds = new Refunds(transport);
    this.subscriptions = new Subscriptions(transport);
    this.invoices = new Invoices(transport);
    this.records = new Records(transport);
    this.reports = new Reports(transport);
    this.capabilities = new Capabilities(transport);
    this.paymentLinks = new PaymentLinks(transport);
    this.plans = new Plans(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.otp = new Otp(transport);
    this.testHelpers = new TestHelpers(transport);
  }
}

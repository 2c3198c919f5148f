import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { Schema } from "../operation-types.js";
import type { Checkout } from "./checkouts.js";
import type { Invoice } from "./invoices.js";
import type { PaymentIntent } from "./payment-intents.js";
import type { PaymentLink } from "./payment-links.js";
import type { Refund } from "./refunds.js";
import type { Subscription } from "./subscriptions.js";

/**
 * Sandbox moves (test-mode credentials only; live ones get 403 `TEST_MODE_ONLY`): what a payer
 * or the provider would do, without a browser. Each is a POST with its own Idempotency-Key.
 */
export class TestHelpers {
  readonly checkouts;
  readonly paymentIntents;
  readonly refunds;
  readonly subscriptions;
  readonly invoices;
  readonly paymentLinks;
  readonly billingClock;

  constructor(t: Transport) {
    this.checkouts = {
      /** Pays a `pending` checkout as its payer would (declined in the decline scenario). */
      pay: (checkoutId: string, options?: CallOptions): Promise<Checkout> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/checkouts/{checkoutId}/pay", { params: { path: { checkoutId }, header }, fetch }));
      },
      fail: (checkoutId: string, options?: CallOptions): Promise<Checkout> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/checkouts/{checkoutId}/fail", { params: { path: { checkoutId }, header }, fetch }));
      },
      expire: (checkoutId: string, options?: CallOptions): Promise<Checkout> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/checkouts/{checkoutId}/expire", { params: { path: { checkoutId }, header }, fetch }));
      },
    };
    this.paymentIntents = {
      succeed: (paymentIntentId: string, options?: CallOptions): Promise<PaymentIntent> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/intents/{paymentIntentId}/succeed", { params: { path: { paymentIntentId }, header }, fetch }));
      },
      fail: (paymentIntentId: string, options?: CallOptions): Promise<PaymentIntent> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/intents/{paymentIntentId}/fail", { params: { path: { paymentIntentId }, header }, fetch }));
      },
    };
    this.refunds = {
      succeed: (refundId: string, options?: CallOptions): Promise<Refund> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/refunds/{refundId}/succeed", { params: { path: { refundId }, header }, fetch }));
      },
      fail: (refundId: string, options?: CallOptions): Promise<Refund> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/refunds/{refundId}/fail", { params: { path: { refundId }, header }, fetch }));
      },
    };
    this.subscriptions = {
      /** Closes the current period and bills the next. */
      advance: (subscriptionId: string, options?: CallOptions): Promise<Subscription> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/subscriptions/{subscriptionId}/advance", { params: { path: { subscriptionId }, header }, fetch }));
      },
    };
    this.invoices = {
      pay: (invoiceId: string, options?: CallOptions): Promise<Invoice> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/invoices/{invoiceId}/pay", { params: { path: { invoiceId }, header }, fetch }));
      },
      fail: (invoiceId: string, options?: CallOptions): Promise<Invoice> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/invoices/{invoiceId}/fail", { params: { path: { invoiceId }, header }, fetch }));
      },
    };
    this.billingClock = {
      /**
       * Runs the billing clock for the project's test mode at `at` (now when absent; later moves
       * test-mode time on): closes the periods ended by then and takes the dunning steps due.
       */
      run: (at?: Date | string, options?: CallOptions): Promise<Schema<"BillingClockRun">> => {
        const { fetch, header } = t.write(options);
        const body = at === undefined ? {} : { at: typeof at === "string" ? at : at.toISOString() };
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/billing-clock/run", { params: { header }, body, fetch }));
      },
    };
    this.paymentLinks = {
      pay: (paymentLinkId: string, options?: CallOptions): Promise<PaymentLink> => {
        const { fetch, header } = t.write(options);
        return unwrap(t.api.POST("/api/v1/payments/test-helpers/payment-links/{paymentLinkId}/pay", { params: { path: { paymentLinkId }, header }, fetch }));
      },
    };
  }
}

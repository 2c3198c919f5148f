import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";
import type { Invoice } from "./invoices.js";

export type Subscription = Schema<"Subscription">;
export type PlanChange = Schema<"PlanChange">;
export type PlanChangePreview = Schema<"PlanChangePreview">;

/** Subscriptions: create, get, cancel, change plan (and preview it), and their invoices. */
export class Subscriptions {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  create(body: RequestBody<"createSubscription">, options?: CallOptions): Promise<Subscription> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/subscriptions", { body, params: { header }, fetch }));
  }

  get(subscriptionId: string, options?: CallOptions): Promise<Subscription> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/subscriptions/{subscriptionId}", { params: { path: { subscriptionId } }, fetch }));
  }

  cancel(subscriptionId: string, options?: CallOptions): Promise<Subscription> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/subscriptions/{subscriptionId}/cancel", { params: { path: { subscriptionId }, header }, fetch }));
  }

  /**
   * Moves the subscription to another plan: `prorate: "now"` (one invoice prorating the period,
   * returned with the subscription) or `"at_period_end"` (scheduled as `pendingPlanChange`).
   * Pass a preview's `prorationDate` to invoice exactly what it answered.
   */
  changePlan(subscriptionId: string, body: RequestBody<"changeSubscriptionPlan">, options?: CallOptions): Promise<PlanChange> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(
      this.#t.api.POST("/api/v1/payments/subscriptions/{subscriptionId}/change-plan", { body, params: { path: { subscriptionId }, header }, fetch }),
    );
  }

  /** What changePlan with this body would do now (lines, total, amountDue, creditCarried), changing nothing. */
  previewPlanChange(subscriptionId: string, body: RequestBody<"previewSubscriptionPlanChange">, options?: CallOptions): Promise<PlanChangePreview> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(
      this.#t.api.POST("/api/v1/payments/subscriptions/{subscriptionId}/change-plan/preview", { body, params: { path: { subscriptionId }, header }, fetch }),
    );
  }

  /** The subscription's invoices, oldest period first (one page: the API does not page them). */
  listInvoices(subscriptionId: string, options?: CallOptions): PageIterator<Invoice> {
    return new PageIterator(async () => {
      const { fetch } = this.#t.read(options);
      const items = await unwrap(this.#t.api.GET("/api/v1/payments/subscriptions/{subscriptionId}/invoices", { params: { path: { subscriptionId } }, fetch }));
      return { items };
    });
  }
}

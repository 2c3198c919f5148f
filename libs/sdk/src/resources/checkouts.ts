import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";

export type Checkout = Schema<"Checkout">;

/** Hosted checkouts: createCheckout, getCheckout, getCheckoutByReference, cancelCheckout. */
export class Checkouts {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Creates a checkout. When the provider has not confirmed the session yet (202, a
   * PendingResource), the checkout is read by its id and answered as it is then (status
   * `created`, no `checkoutUrl` yet; it becomes `pending` by itself), so the answer is always a
   * Checkout. A 409 `PAYMENT_OUTCOME_UNKNOWN` is retried with the same key until it settles or
   * the deadline passes.
   */
  async create(body: RequestBody<"createCheckout">, options?: CallOptions): Promise<Checkout> {
    const { fetch, header } = this.#t.write(options);
    const created = await unwrap(this.#t.api.POST("/api/v1/payments/checkouts", { body, params: { header }, fetch }));
    return "checkoutId" in created ? created : this.get(created.resourceId, options);
  }

  get(checkoutId: string, options?: CallOptions): Promise<Checkout> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/checkouts/{checkoutId}", { params: { path: { checkoutId } }, fetch }));
  }

  /** The checkout created with this `referenceId` (encoded for the path by the SDK). */
  getByReference(referenceId: string, options?: CallOptions): Promise<Checkout> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/checkouts/by-reference/{referenceId}", { params: { path: { referenceId } }, fetch }));
  }

  cancel(checkoutId: string, options?: CallOptions): Promise<Checkout> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/checkouts/{checkoutId}/cancel", { params: { path: { checkoutId }, header }, fetch }));
  }
}

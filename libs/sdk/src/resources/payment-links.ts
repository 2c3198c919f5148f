import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

export type PaymentLink = Schema<"PaymentLink">;

/** Payment links: list, create, get, archive and unarchive. */
export class PaymentLinks {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** The caller's payment links, newest first (one page: the API does not page them). */
  list(options?: CallOptions): PageIterator<PaymentLink> {
    return new PageIterator(async () => {
      const { fetch } = this.#t.read(options);
      return { items: await unwrap(this.#t.api.GET("/api/v1/payments/payment-links", { fetch })) };
    });
  }

  create(body: RequestBody<"createPaymentLink">, options?: CallOptions): Promise<PaymentLink> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/payment-links", { body, params: { header }, fetch }));
  }

  get(paymentLinkId: string, options?: CallOptions): Promise<PaymentLink> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/payment-links/{paymentLinkId}", { params: { path: { paymentLinkId } }, fetch }));
  }

  /** Archives (`true`) or unarchives (`false`) the link (setPaymentLinkArchived). */
  setArchived(paymentLinkId: string, archive: boolean, options?: CallOptions): Promise<PaymentLink> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(
      this.#t.api.PATCH("/api/v1/payments/payment-links/{paymentLinkId}", { body: { archive }, params: { path: { paymentLinkId }, header }, fetch }),
    );
  }
}

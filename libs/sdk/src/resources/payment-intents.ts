import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";

export type PaymentIntent = Schema<"PaymentIntent">;
export type QrPhPaymentIntent = Schema<"QrPhPaymentIntent">;

/** Payment intents, QR Ph included: create, createQrPh, get, confirm, cancel. */
export class PaymentIntents {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  create(body: RequestBody<"createPaymentIntent">, options?: CallOptions): Promise<PaymentIntent> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/intents", { body, params: { header }, fetch }));
  }

  /** A QR Ph payment intent: the answer carries the QR code to show the payer. */
  createQrPh(body: RequestBody<"createQrPhPaymentIntent">, options?: CallOptions): Promise<QrPhPaymentIntent> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/intents/qrph", { body, params: { header }, fetch }));
  }

  get(paymentIntentId: string, options?: CallOptions): Promise<PaymentIntent> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/intents/{paymentIntentId}", { params: { path: { paymentIntentId } }, fetch }));
  }

  confirm(paymentIntentId: string, options?: CallOptions): Promise<PaymentIntent> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/intents/{paymentIntentId}/confirm", { params: { path: { paymentIntentId }, header }, fetch }));
  }

  cancel(paymentIntentId: string, options?: CallOptions): Promise<PaymentIntent> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/intents/{paymentIntentId}/cancel", { params: { path: { paymentIntentId }, header }, fetch }));
  }
}

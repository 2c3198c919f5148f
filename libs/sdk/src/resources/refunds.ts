import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";

export type Refund = Schema<"Refund">;

/** Refunds of a paid checkout or a succeeded payment intent: create, get. */
export class Refunds {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Refunds (part of) the payment `paymentId` (`chk_…` or `pi_…`); it starts `pending`. */
  create(body: RequestBody<"createRefund">, options?: CallOptions): Promise<Refund> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/refunds", { body, params: { header }, fetch }));
  }

  get(refundId: string, options?: CallOptions): Promise<Refund> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/refunds/{refundId}", { params: { path: { refundId } }, fetch }));
  }
}

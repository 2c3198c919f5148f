import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { Schema } from "../operation-types.js";

export type Invoice = Schema<"Invoice">;

/** Invoices of subscriptions: get (list them with subscriptions.listInvoices). */
export class Invoices {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  get(invoiceId: string, options?: CallOptions): Promise<Invoice> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/invoices/{invoiceId}", { params: { path: { invoiceId } }, fetch }));
  }
}

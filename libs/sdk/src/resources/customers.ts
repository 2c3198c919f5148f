import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";

export type Customer = Schema<"Customer">;

/** Customers: create, get. */
export class Customers {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  create(body: RequestBody<"createCustomer">, options?: CallOptions): Promise<Customer> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/customers", { body, params: { header }, fetch }));
  }

  get(customerId: string, options?: CallOptions): Promise<Customer> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/customers/{customerId}", { params: { path: { customerId } }, fetch }));
  }
}

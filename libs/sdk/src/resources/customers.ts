import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody } from "../operation-types.js";

/** Customers: create, get. */
export class Customers {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  create(body: RequestBody<"createCustomer">, options?: CallOptions) {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/customers", { body, params: { header }, fetch }));
  }

  get(customerId: string, options?: CallOptions) {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/customers/{customerId}", { params: { path: { customerId } }, fetch }));
  }
}

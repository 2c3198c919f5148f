import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { Schema } from "../operation-types.js";

export type PaymentCapabilities = Schema<"PaymentCapabilities">;

/** What the platform supports right now (getPaymentCapabilities). */
export class Capabilities {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  get(options?: CallOptions): Promise<PaymentCapabilities> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/capabilities", { fetch }));
  }
}

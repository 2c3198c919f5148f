import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { Schema } from "../operation-types.js";
import type { operations } from "../gen/openapi.js";

export type PaymentsSummary = Schema<"PaymentsSummary">;
export type PaymentTotals = Schema<"PaymentTotals">;
export type PaymentsSummaryQuery = operations["getPaymentsSummary"]["parameters"]["query"];

/** Reports over the caller's payments (getPaymentsSummary). */
export class Reports {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * Totals over the Philippine days `from` to `to` (inclusive), per day, week or month, split by
   * `groupBy` when given (`["payment_method", "provider_account"]`).
   */
  summary(query: PaymentsSummaryQuery, options?: CallOptions): Promise<PaymentsSummary> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/reports/summary", { params: { query }, fetch }));
  }
}

import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { ListQuery, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

export type PaymentRecord = Schema<"PaymentRecord">;

/** The records feed (listPaymentRecords): one record per payment resource, newest first. */
export class Records {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every record matching `query`, page after page (`limit` is the page size). */
  list(query: ListQuery<"listPaymentRecords"> = {}, options?: CallOptions): PageIterator<PaymentRecord> {
    return new PageIterator(async (cursor) => {
      const { fetch } = this.#t.read(options);
      const page = await unwrap(this.#t.api.GET("/api/v1/payments/records", { params: { query: { ...query, cursor } }, fetch }));
      return { items: page.records, nextCursor: page.nextCursor };
    });
  }
}

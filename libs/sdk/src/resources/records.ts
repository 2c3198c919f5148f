import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import { errorFromResponse } from "../errors.js";
import type { operations } from "../gen/openapi.js";
import type { ListQuery, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

export type PaymentRecord = Schema<"PaymentRecord">;
export type PaymentRecordFilters = NonNullable<operations["exportPaymentRecords"]["parameters"]["query"]>;

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

  /**
   * Every record matching `filters` as CSV (exportPaymentRecords; columns in docs/api/records.md),
   * as the response body stream: nothing is buffered, so pipe it where it goes. A refusal (a bad
   * filter) throws a BayadError before any byte; a transfer that breaks off later makes the
   * stream error, so a file written from it is never silently short. `timeoutMs` bounds the wait
   * for the answer, not the reading of it; `signal` stops both.
   */
  async export(filters: PaymentRecordFilters = {}, options?: CallOptions): Promise<ReadableStream<Uint8Array>> {
    const { fetch } = this.#t.readStream(options);
    const { data, error, response } = await this.#t.api.GET("/api/v1/payments/records/export", {
      params: { query: filters },
      parseAs: "stream",
      fetch,
    });
    if (!response.ok || !data) throw errorFromResponse(response, error);
    return data;
  }
}

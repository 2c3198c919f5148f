import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { ListQuery, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

/** An event as delivered and as listEvents answers it: `{id, type, createdAt, environment, data}`, narrowed by `type`. */
export type BayadEvent = Schema<"Event">;

/** The project's events (kept 30 days), whether or not an endpoint subscribed. */
export class Events {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every event matching `query`, newest first, page after page. */
  list(query: ListQuery<"listEvents"> = {}, options?: CallOptions): PageIterator<BayadEvent> {
    return new PageIterator(async (cursor) => {
      const { fetch } = this.#t.read(options);
      const page = await unwrap(this.#t.api.GET("/api/v1/events", { params: { query: { ...query, cursor } }, fetch }));
      return { items: page.events, nextCursor: page.nextCursor };
    });
  }

  get(eventId: string, options?: CallOptions): Promise<BayadEvent> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/events/{eventId}", { params: { path: { eventId } }, fetch }));
  }
}

import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { RequestBody, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

export type Plan = Schema<"Plan">;

/** Plans (recurring prices): list, create, get. */
export class Plans {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** The caller's plans, newest first (one page: the API does not page them). */
  list(options?: CallOptions): PageIterator<Plan> {
    return new PageIterator(async () => {
      const { fetch } = this.#t.read(options);
      return { items: await unwrap(this.#t.api.GET("/api/v1/payments/plans", { fetch })) };
    });
  }

  create(body: RequestBody<"createPlan">, options?: CallOptions): Promise<Plan> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/payments/plans", { body, params: { header }, fetch }));
  }

  get(planId: string, options?: CallOptions): Promise<Plan> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/payments/plans/{planId}", { params: { path: { planId } }, fetch }));
  }
}

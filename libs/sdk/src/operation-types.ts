import type { components, operations } from "./gen/openapi.js";

/** A schema of the OpenAPI document, by name: `Schema<"Checkout">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];

/** The JSON request body of an operation, by operationId. */
export type RequestBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { "application/json": infer Body } };
}
  ? Body
  : never;

/** The query parameters of an operation, by operationId, without the paging `cursor` (the iterators carry it). */
export type ListQuery<Op extends keyof operations> = Omit<NonNullable<operations[Op]["parameters"]["query"]>, "cursor">;

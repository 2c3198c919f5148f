import type { operations } from "../gen/openapi.js";
import type { ValidatedInput } from "./request-validator.js";

/**
 * The document's operations, typed by operationId. `src/gen/openapi.ts` is generated from
 * openapi/openapi.yaml by openapi-typescript (`npm run generate`), with the same options as the
 * SDK's and the dashboard's, so the gateway, its clients and its contract read one set of types.
 */
export type OperationId = keyof operations;

/** `{}` for an operation without that part, so a handler may still destructure it. */
type PartOf<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

type JsonBodyOf<RequestBody> =
  NonNullable<RequestBody> extends { content: { "application/json": infer Body } } ? Body : Record<string, never>;

/** An operation's path parameters, query and JSON body, as its schemas in the document describe them. */
export interface OperationInput<Op extends OperationId> {
  params: PartOf<operations[Op]["parameters"]["path"]>;
  query: PartOf<operations[Op]["parameters"]["query"]>;
  body: JsonBodyOf<operations[Op]["requestBody"]>;
}

/**
 * A validated input, seen as the input of the operation it was validated for. This is where the
 * types meet the request: the request validator checked the input against exactly that
 * operation's schemas (and applied their defaults; an absent optional body is `{}`), which is
 * what makes `OperationInput<Op>` true, so no handler has to cast what its contract already says.
 */
export function operationInput<Op extends OperationId>(_operationId: Op, input: ValidatedInput): OperationInput<Op> {
  return input as unknown as OperationInput<Op>;
}

import type { Readable } from "node:stream";
import type { OperationId, OperationInput } from "../openapi/operation-types.js";
import type { OperationContext } from "./operation.js";

/** A response that is not a JSON envelope but a file, written while it is read. */
export interface StreamedResult {
  contentType: string;
  headers: Record<string, string>;
  /** Pulled by Koa as the client reads: a batch is asked for only when the last one is written. */
  body: Readable;
}

/**
 * An operation that answers a stream. It returns only once its first part is in hand, so that
 * anything that fails before it (validation, a service refusing) is still a JSON error envelope.
 * What fails later ends the transfer instead (executeStreamedOperation).
 */
export type StreamedOperationHandler<Op extends OperationId> = (
  input: OperationInput<Op>,
  context: OperationContext & { signal: AbortSignal },
) => Promise<StreamedResult>;

export type StreamedOperationHandlers = { [Op in OperationId]?: StreamedOperationHandler<Op> };

export function hasStreamedHandler(handlers: StreamedOperationHandlers, operationId: string): operationId is OperationId {
  return Object.hasOwn(handlers, operationId);
}

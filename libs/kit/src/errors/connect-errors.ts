import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@bayad/proto";
import { create } from "@bufbuild/protobuf";
import { AppError } from "./app-error.js";
import { errorCatalogue, isErrorCode } from "./catalogue.js";
import { appErrorOfStoreFault } from "./store-faults.js";

/** Turns an AppError into a ConnectError that carries the catalogue code as an error detail. */
export function toConnectError(error: AppError): ConnectError {
  const retryAfter = Number(error.headers?.["Retry-After"] ?? 0);
  const detail = create(ErrorDetailSchema, {
    code: error.code,
    details: error.details ?? [],
    retryAfterSeconds: Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : 0,
  });
  return new ConnectError(error.message, errorCatalogue[error.code].grpc, undefined, [
    { desc: ErrorDetailSchema, value: detail },
  ]);
}

/**
 * Turns whatever a gRPC call threw back into an AppError. A catalogue detail wins; otherwise the
 * gRPC code decides, a store's own failure is a 503 (appErrorOfStoreFault), and anything
 * unexplained is an internal error (its text stays in `cause`).
 */
export function fromConnectError(thrown: unknown): AppError {
  if (thrown instanceof AppError) return thrown;
  // A store called in this process (the gateway's own) throws its own errors, not a ConnectError.
  const storeFault = appErrorOfStoreFault(thrown);
  if (storeFault !== undefined) return storeFault;
  const error = ConnectError.from(thrown);
  const [detail] = error.findDetails(ErrorDetailSchema);
  if (detail && isErrorCode(detail.code)) {
    return new AppError(detail.code, error.rawMessage, {
      details: detail.details.length > 0 ? detail.details : undefined,
      headers: detail.retryAfterSeconds > 0 ? { "Retry-After": String(detail.retryAfterSeconds) } : undefined,
      cause: error,
    });
  }
  if (error.code === Code.Unavailable) return new AppError("SERVICE_UNAVAILABLE", undefined, { cause: error });
  return new AppError("INTERNAL_ERROR", undefined, { cause: error });
}

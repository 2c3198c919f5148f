import { errorCatalogue, type ErrorCode } from "./catalogue.js";

export interface AppErrorOptions {
  /** One string per violation, each naming the field. Sent to clients. */
  details?: string[];
  /** The underlying failure, kept for logs and never sent to clients. */
  cause?: unknown;
  /** Extra response headers, such as Retry-After. */
  headers?: Record<string, string>;
}

/** The one error type thrown across boundaries: a catalogue code, a message safe to show. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: string[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, options: AppErrorOptions = {}) {
    super(message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }

  get httpStatus(): number {
    return errorCatalogue[this.code].http;
  }
}

export function notFound(resource: string, id: string): AppError {
  return new AppError("RESOURCE_NOT_FOUND", `No ${resource} with id ${id}.`);
}

export function invalidTransition(resource: string, from: string, action: string): AppError {
  return new AppError(
    "INVALID_STATE_TRANSITION",
    `A ${resource} with status ${from} cannot be ${action}.`,
  );
}

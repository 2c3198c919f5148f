import type { AppError } from "@bayad/kit";

/** The body of every success response. */
export interface SuccessEnvelope<T = unknown> {
  success: true;
  data: T;
}

/** The body of every error response. */
export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details?: string[] };
  meta: { timestamp: string; correlationId: string };
}

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data };
}

/** Only the code, the message and the details cross to the client; never the cause. */
export function errorEnvelope(error: AppError, correlationId: string): ErrorEnvelope {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
    },
    meta: { timestamp: new Date().toISOString(), correlationId },
  };
}

/**
 * An answer in Xendit's error shape, `{"error_code","message"}` [O]. Handlers throw it and the
 * server turns it into the response; the programmatic controls throw it too, so a test can read
 * `status` and `errorCode`.
 */
export class XenditSimulatorError extends Error {
  readonly status: number;
  readonly errorCode: string;

  constructor(status: number, errorCode: string, message: string) {
    super(message);
    this.name = "XenditSimulatorError";
    this.status = status;
    this.errorCode = errorCode;
  }

  toBody(): { error_code: string; message: string } {
    return { error_code: this.errorCode, message: this.message };
  }
}

/** 400 API_VALIDATION_ERROR, Xendit's answer to a body that breaks the schema [O]. */
export function validationError(message: string): XenditSimulatorError {
  return new XenditSimulatorError(400, "API_VALIDATION_ERROR", message);
}

/** 404 DATA_NOT_FOUND, also for another account's object (Xendit does not reveal it exists). */
export function notFound(id: string): XenditSimulatorError {
  return new XenditSimulatorError(404, "DATA_NOT_FOUND", `No resource with id ${id} was found.`);
}

/** 401 for a missing or malformed key; the code name is UNCONF (the facts list no 401 code): INVALID_API_KEY. */
export function unauthorized(message: string): XenditSimulatorError {
  return new XenditSimulatorError(401, "INVALID_API_KEY", message);
}

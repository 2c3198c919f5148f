/** One entry of PayMongo's `errors` array. */
export interface ErrorEntry {
  code: string;
  detail: string;
  source?: { pointer: string; attribute: string };
}

/**
 * An answer in PayMongo's error shape, `{"errors":[…]}`. Handlers throw it; the server turns it
 * into the response. The programmatic controls throw it too, so a test can read `status` and
 * `code`.
 */
export class PaymongoSimulatorError extends Error {
  readonly status: number;
  readonly errors: ErrorEntry[];

  constructor(status: number, errors: ErrorEntry[]) {
    super(errors.map((e) => e.detail).join(" "));
    this.name = "PaymongoSimulatorError";
    this.status = status;
    this.errors = errors;
  }

  get code(): string {
    return this.errors[0]?.code ?? "unknown";
  }

  toBody(): { errors: ErrorEntry[] } {
    return { errors: this.errors };
  }
}

export function notFound(id: string, attribute?: string): PaymongoSimulatorError {
  const entry: ErrorEntry = { code: "resource_not_found", detail: `No such resource with id ${id}.` };
  if (attribute) entry.source = { pointer: `attributes.${attribute}`, attribute };
  return new PaymongoSimulatorError(404, [entry]);
}

export function failedState(detail: string): PaymongoSimulatorError {
  return new PaymongoSimulatorError(400, [{ code: "resource_failed_state", detail }]);
}

export function unauthorized(detail: string): PaymongoSimulatorError {
  // The code name is UNCONF (contract): PayMongo documents the 401, not its code.
  return new PaymongoSimulatorError(401, [{ code: "authentication_failed", detail }]);
}

export function invalid(attribute: string, code: string, detail: string): PaymongoSimulatorError {
  return new PaymongoSimulatorError(400, [
    { code, detail, source: { pointer: `attributes.${attribute}`, attribute } },
  ]);
}

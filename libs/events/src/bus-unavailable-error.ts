/**
 * The bus cannot take a publish now (not connected, or no acknowledgement in time). The outbox
 * relay answers it by retrying later; nothing is lost, because the record stays unpublished.
 */
export class BusUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BusUnavailableError";
  }
}

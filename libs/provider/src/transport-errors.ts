/**
 * What a transport error says about whether a request left this process, shared by the provider
 * HTTP clients: a request that never left cannot have made anything at the provider, so it is
 * "nothing happened" rather than an unknown outcome to reconcile.
 */

// Errors raised before the request left this process: the provider cannot have acted on it.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/** The first `code` found on an error or its causes (undici and Node put it at different depths). */
export function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // A host with several addresses fails with one error per address tried.
    current = current instanceof AggregateError ? current.errors[0] : current.cause;
  }
  return undefined;
}

/** Whether the request may have reached the provider before `error` (false only when it certainly did not). */
export function mayHaveBeenSent(error: unknown): boolean {
  return !NOT_SENT_CODES.has(errorCodeOf(error) ?? "");
}

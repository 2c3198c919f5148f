/** What one delivery attempt got: the receiver's status, or why there was none. */
export interface DeliveryOutcome {
  status?: number;
  error?: string;
}

export interface DeliveryRequest {
  /** The provider's own headers (signature or token, user-agent); content-type is JSON. */
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborted when the simulator closes, ending every attempt still waiting. */
  shutdown: AbortSignal;
}

/**
 * POSTs one webhook or callback, never following a redirect (a 3xx is an answer, not a success)
 * and never throwing: no answer within `timeoutMs`, the simulator closing, or the connection
 * failing (its code, e.g. ECONNREFUSED) is an `error`.
 */
export async function postDelivery(url: string, request: DeliveryRequest): Promise<DeliveryOutcome> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: request.body,
      redirect: "manual",
      signal: AbortSignal.any([timeout, request.shutdown]),
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  } catch (err) {
    if (timeout.aborted) return { error: `no answer within ${request.timeoutMs} ms` };
    if (request.shutdown.aborted) return { error: "the simulator closed" };
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (err as Error).message };
  }
}

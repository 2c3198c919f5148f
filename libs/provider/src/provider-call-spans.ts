import { currentTracer, inSpan, SpanKind, tracingEnabled } from "@bayad/kit";

/** What a provider HTTP client's call says of itself, for its span. */
export interface SpannedCall {
  operation: string;
  method: string;
}

/**
 * A provider client's `send` with, while traces are on, each call (its retries included) as a
 * client span of the component making it, named "<Provider> <operation>": one shape of span for
 * every provider, so a trace reads the same whichever one a payment went to.
 */
export function withCallSpans<C extends SpannedCall, R>(
  provider: { id: string; name: string },
  apiBase: string,
  send: (secretKey: string, call: C) => Promise<R>,
): (secretKey: string, call: C) => Promise<R> {
  const serverAddress = new URL(apiBase).host;
  return (secretKey, call) =>
    tracingEnabled()
      ? inSpan(
          currentTracer("provider"),
          `${provider.name} ${call.operation}`,
          {
            kind: SpanKind.CLIENT,
            attributes: { "bayad.provider": provider.id, "bayad.provider.operation": call.operation, "http.request.method": call.method, "server.address": serverAddress },
          },
          () => send(secretKey, call),
        )
      : send(secretKey, call);
}

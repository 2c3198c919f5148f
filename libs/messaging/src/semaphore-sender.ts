import { toSemaphoreNumber } from "./philippine-mobile.js";
import { DeliveryFailedError, DeliveryUncertainError, UNREACHABLE_NETWORK_CODES, type MessageSender, type OutboundMessage } from "./sender.js";

export interface SemaphoreSenderOptions {
  apiKey: string;
  /**
   * The approved Sender Name (up to 11 letters and digits). Omitted, Semaphore sends as
   * "SEMAPHORE"; a name the account has not registered makes it refuse every message.
   */
  senderName?: string;
  /** Default https://api.semaphore.co; tests point it at a local server. */
  baseUrl?: string;
  /** The longest a send may take, request and answer. Default 8000. */
  timeoutMs?: number;
}

/** One message as Semaphore's send endpoint answers it (an array holds one per number). */
interface SemaphoreMessage {
  message_id?: number;
  recipient?: string;
  status?: string;
}

/**
 * SMS through Semaphore (https://api.semaphore.co/docs, "Sending Messages"): an HTTP POST to
 * /api/v4/messages with the form fields apikey, number, message and sendername. Semaphore
 * answers 200 with a JSON array holding, per number, message_id, recipient, message,
 * sender_name, network, status (Pending/Queued at first) and timestamps. The endpoint is rate
 * limited (120 calls a minute); over the limit it answers 429 with Retry-After.
 *
 * What its documentation does not spell out, and this adapter assumes from how the API is
 * known to behave: a refused request answers with a JSON object naming the offending fields
 * (e.g. {"number": ["The number format is invalid."]}), sometimes with status 200; a missing
 * or wrong apikey is a 4xx; a 5xx may come after the message was queued.
 */
export function createSemaphoreSender(options: SemaphoreSenderOptions): MessageSender {
  const endpoint = `${(options.baseUrl ?? "https://api.semaphore.co").replace(/\/+$/, "")}/api/v4/messages`;
  const timeoutMs = options.timeoutMs ?? 8_000;

  return {
    async send(message: OutboundMessage) {
      if (message.channel !== "sms") throw new DeliveryFailedError("the SMS sender cannot deliver an e-mail");
      const number = toSemaphoreNumber(message.recipient);
      if (!number) throw new DeliveryFailedError("the SMS provider only reaches Philippine mobile numbers");

      const form = new URLSearchParams({ apikey: options.apiKey, number, message: message.body });
      if (options.senderName) form.set("sendername", options.senderName);

      let response: Response;
      let text: string;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        throw classifyNetworkError(error);
      }
      interpretAnswer(response.status, response.headers, text);
    },
  };
}

/** Throws unless Semaphore's answer says it took the message. */
function interpretAnswer(status: number, headers: Headers, text: string): void {
  if (status === 429) {
    // Nothing was queued: a definite failure, with the wait Semaphore asked for.
    const retryAfter = Number(headers.get("retry-after"));
    throw new DeliveryFailedError("the SMS provider is rate limiting requests", {
      retryAfterSeconds: Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    });
  }
  if (status >= 500) throw new DeliveryUncertainError(`the SMS provider answered ${status}`);
  const body = parseJson(text);
  if (status >= 400) throw new DeliveryFailedError(`the SMS provider refused the message (${status}${fieldsOf(body)})`);
  if (status < 200 || status >= 300) throw new DeliveryUncertainError(`the SMS provider answered ${status}`);

  if (Array.isArray(body) && body.length > 0 && isMessage(body[0])) {
    const state = String(body[0].status ?? "").toLowerCase();
    if (state === "failed" || state === "refunded") throw new DeliveryFailedError(`the SMS provider reports the message ${state}`);
    return;
  }
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    // A validation answer with status 200: nothing was queued.
    throw new DeliveryFailedError(`the SMS provider refused the message${fieldsOf(body)}`);
  }
  // A 2xx we cannot read: it may well have queued the message.
  throw new DeliveryUncertainError("the SMS provider's answer could not be read");
}

function isMessage(value: unknown): value is SemaphoreMessage {
  return value !== null && typeof value === "object" && "message_id" in value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The names of the fields a refusal complains about (never their text, which may echo the number). */
function fieldsOf(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "";
  const fields = Object.keys(body).filter((key) => /^[a-z_]{1,32}$/i.test(key));
  return fields.length > 0 ? `: ${fields.join(", ")}` : "";
}

/**
 * A request that never reached Semaphore (no such host, connection refused) sent nothing; a
 * connection that broke or a timeout once the request was on its way may have queued it.
 */
function classifyNetworkError(error: unknown): DeliveryFailedError | DeliveryUncertainError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : "";
  if (UNREACHABLE_NETWORK_CODES.has(code)) {
    return new DeliveryFailedError(`the SMS provider could not be reached (${code})`, { cause: error });
  }
  // fetch refuses some ports outright (the Fetch standard's "bad port" list) before connecting.
  if (cause?.message === "bad port") {
    return new DeliveryFailedError("the SMS provider's address is not usable (bad port)", { cause: error });
  }
  const name = error instanceof Error ? error.name : "";
  const what = name === "TimeoutError" || name === "AbortError" ? "timed out" : `failed (${code || name || "network"})`;
  return new DeliveryUncertainError(`the request to the SMS provider ${what} after it was sent`, { cause: error });
}

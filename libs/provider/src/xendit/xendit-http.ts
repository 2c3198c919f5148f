import { Agent, request } from "undici";
import { activeSpan } from "@bayad/kit";
import { ProviderNoAnswerError } from "../port.js";
import { providerUnavailable } from "../provider-errors.js";
import { withCallSpans } from "../provider-call-spans.js";
import { responseJson } from "../response-json.js";
import { mayHaveBeenSent } from "../transport-errors.js";
import { xenditErrorOf, xenditFailureOf, type XenditErrorAnswer } from "./xendit-errors.js";

export const XENDIT_API_BASE_DEFAULT = "https://api.xendit.co";

/** The one value the Payments API v3 takes in its `api-version` header [O xendit.md §1]. */
export const XENDIT_API_VERSION = "2024-11-11";

export interface XenditHttpOptions {
  /** Xendit's API root (one host for test and live; the simulator's URL in tests). */
  apiBase: string;
  /** How long establishing a connection may take. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long Xendit may take to send the response's headers, and then each part of its body. Default 15 s. */
  responseTimeoutMs?: number;
}

/** A Xendit object as it answered: flat JSON, no envelope [O xendit.md §1]. */
export type XenditObject = Record<string, unknown>;

export interface XenditCall {
  method: "GET" | "POST";
  /** From the API root, e.g. `/v3/payment_requests`. */
  path: string;
  body?: Record<string, unknown>;
  /** Names the call in errors and traces, e.g. `createRefund`. */
  operation: string;
  /** Sent as `idempotency-key`; callers pass one only where Xendit honours it (POST /refunds). */
  idempotencyKey?: string;
}

export interface XenditHttp {
  send(secretKey: string, call: XenditCall): Promise<XenditObject>;
  /** A GET of a list Xendit answers as a bare JSON array (`GET /v2/invoices`), read as `send` reads. */
  list(secretKey: string, call: XenditCall & { method: "GET" }): Promise<XenditObject[]>;
  close(): Promise<void>;
}

type Answer = { kind: "answer"; answer: XenditErrorAnswer } | { kind: "no-answer"; sent: boolean; cause: unknown };

const isObject = (value: unknown): value is XenditObject => typeof value === "object" && value !== null && !Array.isArray(value);
const isObjectList = (value: unknown): value is XenditObject[] => Array.isArray(value) && value.every(isObject);

/**
 * Xendit's HTTP transport: one keep-alive undici Agent, Basic auth with the key of each call
 * (secret key as user name, empty password [O]), `api-version` on the v3 paths, flat JSON in and
 * out, and bounded connect and response times.
 *
 * A create (POST) is sent once. When it may have reached Xendit and no answer says what it did (a
 * reset, a timeout, a 5xx other than Xendit's CHANNEL_UNAVAILABLE / ISSUER_UNAVAILABLE, an
 * unreadable 2xx) it throws ProviderNoAnswerError, and reconciliation settles it: Xendit's
 * idempotency semantics are undocumented (xendit.md §8), so a blind resend could make a second
 * object. When Xendit certainly did nothing (no connection, a 429, a refused key, an unavailable
 * channel) the error is PROVIDER_UNAVAILABLE; its other 4xx are XenditRejectedError.
 *
 * A read (GET) is sent once more after a lost answer or an unexplained 5xx (reading twice
 * changes nothing), and then fails as PROVIDER_UNAVAILABLE. Xendit's test limit is 60 requests a
 * minute per endpoint: a 429 is never waited out here but answered at once with its reset time.
 *
 * The key travels only in the Authorization header; errors name it by its last four characters.
 */
export function createXenditHttp(options: XenditHttpOptions): XenditHttp {
  const apiBase = options.apiBase.replace(/\/+$/, "");
  const responseTimeoutMs = options.responseTimeoutMs ?? 15_000;
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    headersTimeout: responseTimeoutMs,
    bodyTimeout: responseTimeoutMs,
  });

  const sendOnce = async (secretKey: string, call: XenditCall): Promise<Answer> => {
    const hasBody = call.method === "POST" && call.body !== undefined;
    try {
      const response = await request(`${apiBase}${call.path}`, {
        dispatcher: agent,
        method: call.method,
        headers: {
          authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}`,
          accept: "application/json",
          ...(call.path.startsWith("/v3/") ? { "api-version": XENDIT_API_VERSION } : {}),
          ...(hasBody ? { "content-type": "application/json" } : {}),
          ...(call.idempotencyKey !== undefined ? { "idempotency-key": call.idempotencyKey } : {}),
        },
        body: hasBody ? JSON.stringify(call.body) : undefined,
      });
      activeSpan()?.setAttribute("http.response.status_code", response.statusCode);
      const body = await responseJson(response.body);
      return { kind: "answer", answer: { status: response.statusCode, body, headers: response.headers } };
    } catch (error) {
      return { kind: "no-answer", sent: mayHaveBeenSent(error), cause: error };
    }
  };

  const unreachable = (call: XenditCall, cause: unknown) => providerUnavailable(`Xendit could not be reached (${call.operation}).`, { cause });
  const succeeded = (answer: XenditErrorAnswer) => answer.status >= 200 && answer.status < 300;

  const read = async <T>(secretKey: string, call: XenditCall, readable: (body: unknown) => body is T): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const result = await sendOnce(secretKey, call);
      if (result.kind === "answer") {
        const { answer } = result;
        if (succeeded(answer) && readable(answer.body)) return answer.body;
        const unexplained = succeeded(answer) || (answer.status >= 500 && xenditFailureOf(answer).kind === "no_answer");
        if (!unexplained) throw xenditErrorOf(answer, call.operation, secretKey);
        if (attempt >= 2) throw providerUnavailable(`Xendit answered ${call.operation} with HTTP ${answer.status} and no readable object.`);
      } else if (attempt >= 2) {
        throw unreachable(call, result.cause);
      }
    }
  };

  const write = async (secretKey: string, call: XenditCall): Promise<XenditObject> => {
    const result = await sendOnce(secretKey, call);
    if (result.kind === "no-answer") {
      if (!result.sent) throw unreachable(call, result.cause);
      throw new ProviderNoAnswerError(call.operation);
    }
    const { answer } = result;
    if (succeeded(answer)) {
      // A 2xx whose body cannot be read may have made the object: outcome unknown.
      if (!isObject(answer.body)) throw new ProviderNoAnswerError(call.operation);
      return answer.body;
    }
    throw xenditErrorOf(answer, call.operation, secretKey);
  };

  const send = (secretKey: string, call: XenditCall) => (call.method === "GET" ? read(secretKey, call, isObject) : write(secretKey, call));
  const spans = { id: "xendit", name: "Xendit" };
  return {
    send: withCallSpans(spans, apiBase, send),
    list: withCallSpans(spans, apiBase, (secretKey: string, call: XenditCall) => read(secretKey, call, isObjectList)),
    close: () => agent.close(),
  };
}

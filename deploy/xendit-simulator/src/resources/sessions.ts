import { readPesos } from "../amounts.js";
import { validationError, XenditSimulatorError } from "../api-error.js";
import type { Account } from "../auth.js";
import { BodyReader } from "../body-reader.js";
import { CHANNELS, channelOf, checkChannelLimits } from "../channels.js";
import { newSessionId } from "../ids.js";
import { afterLong } from "../long-timer.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";
import { failPaymentRequest, openPaymentRequest, succeedPaymentRequest } from "./payment-requests.js";

/** A session lives 30 min unless `expires_at` says otherwise [O]. */
export const SESSION_DEFAULT_EXPIRY_MS = 30 * 60_000;

/**
 * `POST /sessions` [O]: the hosted page, the checkout counterpart. The simulator serves
 * session_type PAY in mode PAYMENT_LINK; the other types and modes are refused, not imitated.
 */
export function createSession(sim: Simulation, account: Account, body: Record<string, unknown>): Record<string, unknown> {
  const read = new BodyReader(body);
  const reference = read.string("reference_id", { max: 64 });
  read.oneOf("session_type", ["PAY"]);
  read.oneOf("mode", ["PAYMENT_LINK"]);
  const amount = readPesos(read.raw("amount"), "amount", { positive: true });
  read.oneOf("currency", ["PHP"]);
  read.oneOf("country", ["PH"]);
  const allowed = allowedChannels(read.raw("allowed_payment_channels"));
  const expiresAt = read.has("expires_at") ? futureDate(read.raw("expires_at")) : new Date(Date.now() + SESSION_DEFAULT_EXPIRY_MS);
  const id = newSessionId();
  const stored = sim.state.put("session", account, id, {
    payment_session_id: id,
    business_id: account.businessId,
    reference_id: reference,
    session_type: "PAY",
    mode: "PAYMENT_LINK",
    amount,
    currency: "PHP",
    country: "PH",
    customer_id: read.optionalString("customer_id") ?? null,
    allowed_payment_channels: allowed,
    capture_method: "AUTOMATIC",
    success_return_url: read.optionalString("success_return_url") ?? null,
    cancel_return_url: read.optionalString("cancel_return_url") ?? null,
    description: read.optionalString("description", { max: 1000 }) ?? null,
    locale: read.optionalString("locale") ?? null,
    metadata: read.metadata(),
    expires_at: expiresAt.toISOString(),
    status: "ACTIVE",
    payment_link_url: `${sim.state.baseUrl}/checkout/${id}`,
    payment_request_id: null,
    payment_id: null,
  });
  afterLong(sim.timers, Math.max(0, expiresAt.getTime() - Date.now()), () => {
    if (stored.body["status"] === "ACTIVE") expireSession(sim, stored);
  });
  return sim.state.view(stored);
}

function allowedChannels(value: unknown): string[] {
  if (value === undefined || value === null) return [...CHANNELS.keys()];
  if (!Array.isArray(value) || value.length === 0) throw validationError("allowed_payment_channels must be a non-empty array of channel codes.");
  return value.map((code) => channelOf(code).code);
}

function futureDate(value: unknown): Date {
  const date = typeof value === "string" ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()) || date.getTime() <= Date.now()) throw validationError("expires_at must be an ISO-8601 time in the future.");
  return date;
}

/**
 * The payer pays on the hosted page with `channelCode` (the first allowed by default): a request
 * and its payment are made (`payment.capture`), the session COMPLETED with their ids
 * (`payment_session.completed`) [O].
 */
export function paySession(sim: Simulation, session: Stored, channelCode?: string): { paymentRequestId: string; paymentId: string } {
  const request = attemptOnSession(sim, session, channelCode);
  const payment = succeedPaymentRequest(sim, request);
  sim.state.update(session, { status: "COMPLETED", payment_request_id: request.id, payment_id: payment.id });
  sim.state.emit("payment_session.completed", session);
  return { paymentRequestId: request.id, paymentId: payment.id };
}

/** A failed attempt on the page: `payment.failure` on its payment, and the session stays ACTIVE for another try [O]. */
export function failSessionAttempt(sim: Simulation, session: Stored, channelCode?: string, failureCode?: string): { paymentId: string } {
  const request = attemptOnSession(sim, session, channelCode);
  return { paymentId: failPaymentRequest(sim, request, failureCode).id };
}

export function expireSession(sim: Simulation, session: Stored): void {
  requireActive(session);
  sim.state.update(session, { status: "EXPIRED" });
  sim.state.emit("payment_session.expired", session);
}

function attemptOnSession(sim: Simulation, session: Stored, channelCode?: string): Stored {
  requireActive(session);
  const allowed = session.body["allowed_payment_channels"] as string[];
  const code = channelCode ?? allowed[0];
  if (code === undefined || !allowed.includes(code)) throw validationError(`This session takes ${allowed.join(", ")}.`);
  const channel = channelOf(code);
  const amount = session.body["amount"] as number;
  checkChannelLimits(channel, amount);
  const view = openPaymentRequest(sim, session.account, {
    reference: session.body["reference_id"] as string,
    amount,
    channel,
    properties: {},
    description: session.body["description"] as string | null,
    customerId: session.body["customer_id"] as string | null,
    metadata: session.body["metadata"] as Record<string, unknown> | null,
  });
  return sim.state.any(view["payment_request_id"] as string, "payment_request");
}

function requireActive(session: Stored): void {
  if (session.body["status"] !== "ACTIVE") {
    // The code for acting on a finished session is UNCONF: the payment requests' INACTIVE_PAYMENT_REQUEST.
    throw new XenditSimulatorError(400, "INACTIVE_PAYMENT_REQUEST", `The session is ${String(session.body["status"])}.`);
  }
}

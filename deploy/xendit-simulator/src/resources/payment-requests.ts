import { readPesos } from "../amounts.js";
import { validationError, XenditSimulatorError } from "../api-error.js";
import type { Account } from "../auth.js";
import { BodyReader } from "../body-reader.js";
import { channelOf, checkChannelLimits, type Channel } from "../channels.js";
import { newId } from "../ids.js";
import { qrPhString } from "../qr-string.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";
import { makePayment } from "./payments.js";

/** Statuses from which the payer can still pay (and the merchant cancel) [O]. */
const OPEN = ["REQUIRES_ACTION", "ACCEPTING_PAYMENTS"];

/**
 * `POST /v3/payment_requests`, type PAY [O]: required reference_id, type, country, currency,
 * request_amount, channel_code, channel_properties. The simulator serves the PH e-wallets and
 * QRPH; other types and channels are refused with API_VALIDATION_ERROR rather than imitated.
 */
export function createPaymentRequest(sim: Simulation, account: Account, body: Record<string, unknown>): Record<string, unknown> {
  const read = new BodyReader(body);
  const reference = read.string("reference_id", { max: 255 });
  read.oneOf("type", ["PAY"]);
  read.oneOf("country", ["PH"]);
  // PH channels take PHP only [O].
  read.oneOf("currency", ["PHP"]);
  const amount = readPesos(read.raw("request_amount"), "request_amount", { positive: false });
  const channel = channelOf(read.raw("channel_code"));
  const properties = read.object("channel_properties");
  checkReturnUrls(channel, properties);
  checkChannelLimits(channel, amount);
  const captureMethod = read.has("capture_method") ? read.oneOf("capture_method", ["AUTOMATIC", "MANUAL"]) : "AUTOMATIC";
  // MANUAL capture works for cards only [O docs/authorize-and-capture-1].
  if (captureMethod === "MANUAL") throw validationError(`capture_method MANUAL is not available for ${channel.code}.`);
  return openPaymentRequest(sim, account, {
    reference,
    amount,
    channel,
    properties,
    description: read.optionalString("description", { max: 1000 }) ?? null,
    customerId: read.optionalString("customer_id") ?? null,
    metadata: read.metadata(),
  });
}

/**
 * Return URLs on redirect channels are HTTPS, 11–255 characters [O]. Which of them are required
 * is UNCONF: the simulator requires success and failure URLs, the stricter reading, so an adapter
 * that passes here sends what Xendit may require.
 */
function checkReturnUrls(channel: Channel, properties: Record<string, unknown>): void {
  if (channel.kind !== "redirect") return;
  const read = new BodyReader(properties);
  for (const name of ["success_return_url", "failure_return_url", "cancel_return_url"]) {
    const required = name !== "cancel_return_url";
    if (!required && !read.has(name)) continue;
    const url = read.string(name, { min: 11, max: 255 });
    if (!url.startsWith("https://")) throw validationError(`channel_properties.${name} must be an HTTPS URL.`);
  }
}

export interface OpenRequest {
  reference: string;
  amount: number;
  channel: Channel;
  properties: Record<string, unknown>;
  description: string | null;
  customerId: string | null;
  metadata: Record<string, unknown> | null;
}

/** Makes a REQUIRES_ACTION request with its action, and its expiry timer. Also used by sessions. */
export function openPaymentRequest(sim: Simulation, account: Account, input: OpenRequest): Record<string, unknown> {
  const id = newId("pr");
  const action =
    input.channel.kind === "qr"
      ? { type: "PRESENT_TO_CUSTOMER", descriptor: "QR_STRING", value: qrPhString(input.reference, input.amount) }
      : { type: "REDIRECT_CUSTOMER", descriptor: "WEB_URL", value: `${sim.state.baseUrl}/pay/${id}` };
  const stored = sim.state.put("payment_request", account, id, {
    payment_request_id: id,
    business_id: account.businessId,
    reference_id: input.reference,
    type: "PAY",
    country: "PH",
    currency: "PHP",
    request_amount: input.amount,
    capture_method: "AUTOMATIC",
    channel_code: input.channel.code,
    channel_properties: input.properties,
    actions: [action],
    status: "REQUIRES_ACTION",
    failure_code: null,
    latest_payment_id: null,
    customer_id: input.customerId,
    description: input.description,
    metadata: input.metadata,
  });
  stored.internal["refundedCentavos"] = 0;
  sim.timers.after(sim.settings.paymentRequestExpiryMs ?? input.channel.expiryMs, () => {
    if (OPEN.includes(stored.body["status"] as string)) expirePaymentRequest(sim, stored);
  });
  return sim.state.view(stored);
}

/** `POST /v3/payment_requests/{id}/cancel`: stops the payer completing [O]; only while it is open. */
export function cancelPaymentRequest(sim: Simulation, stored: Stored): Record<string, unknown> {
  requireOpen(stored);
  sim.state.update(stored, { status: "CANCELED" });
  return sim.state.view(stored);
}

/**
 * `POST /v3/payment_requests/{id}/simulate` {amount}, test keys only [O]: the request succeeds and
 * a payment is made; the answer is `{status: "PENDING", message}` and the result comes by callback
 * [O]. Which error a live key gets is UNCONF: 403 INVALID_MERCHANT_SETTINGS here.
 */
export function simulatePayment(sim: Simulation, account: Account, stored: Stored, body: Record<string, unknown>): Record<string, unknown> {
  if (account.mode !== "test") {
    throw new XenditSimulatorError(403, "INVALID_MERCHANT_SETTINGS", "Payments can be simulated in test mode only.");
  }
  requireOpen(stored);
  const read = new BodyReader(body);
  if (read.has("amount")) {
    const amount = readPesos(read.raw("amount"), "amount", { positive: true });
    // A partial or excess payment is not a thing these channels do: the amount must be the request's.
    if (amount !== stored.body["request_amount"]) throw validationError("amount must equal the payment request's request_amount.");
  }
  succeedPaymentRequest(sim, stored);
  return { status: "PENDING", message: "The payment simulation is processing; its result is sent by callback." };
}

/** The payer paid: a SUCCEEDED payment `py-…` with one capture, the request SUCCEEDED, `payment.capture` [O]. */
export function succeedPaymentRequest(sim: Simulation, stored: Stored): Stored {
  requireOpen(stored);
  const payment = makePayment(sim, stored, { status: "SUCCEEDED" });
  sim.state.update(stored, { status: "SUCCEEDED", latest_payment_id: payment.id });
  sim.state.emit("payment.capture", payment);
  return payment;
}

/** The payer did not pay: a FAILED payment with the failure code, the request FAILED, `payment.failure` [O]. */
export function failPaymentRequest(sim: Simulation, stored: Stored, failureCode = "USER_DID_NOT_AUTHORIZE"): Stored {
  requireOpen(stored);
  const payment = makePayment(sim, stored, { status: "FAILED", failureCode });
  sim.state.update(stored, { status: "FAILED", failure_code: failureCode, latest_payment_id: payment.id });
  sim.state.emit("payment.failure", payment);
  return payment;
}

/** The request ran out of time: EXPIRED with PAYMENT_REQUEST_EXPIRED, `payment_request.expiry` [O]. */
export function expirePaymentRequest(sim: Simulation, stored: Stored): void {
  requireOpen(stored);
  sim.state.update(stored, { status: "EXPIRED", failure_code: "PAYMENT_REQUEST_EXPIRED" });
  sim.state.emit("payment_request.expiry", stored);
}

function requireOpen(stored: Stored): void {
  if (!OPEN.includes(stored.body["status"] as string)) {
    throw new XenditSimulatorError(400, "INACTIVE_PAYMENT_REQUEST", `The payment request is ${String(stored.body["status"])} and can no longer be paid or canceled.`);
  }
}

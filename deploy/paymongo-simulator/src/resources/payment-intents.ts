import { failedState, invalid } from "../api-error.js";
import { checkMethodAmounts } from "../amount-limits.js";
import { AttributeReader } from "../attribute-reader.js";
import { PAYMENT_INTENT_TYPES, REDIRECT_TYPES } from "../payment-methods-catalogue.js";
import { qrImageDataUrl } from "../qr-image.js";
import { randomBase62, unixNow } from "../ids.js";
import type { ApiRequest, Simulation } from "../simulation.js";
import type { Account, Rendered, StoredObject } from "../state.js";
import { createPayment } from "./payments.js";

const TYPE = "payment_intent";
const MINIMUM_AMOUNT = 2000;

export interface NewIntent {
  amount: number;
  currency: string;
  methods: string[];
  description: string | null;
  metadata: Record<string, string> | null;
  statementDescriptor?: string | null;
}

export function newIntent(sim: Simulation, account: Account, i: NewIntent): StoredObject {
  const intent = sim.state.create(
    account,
    "pi",
    TYPE,
    {
      amount: i.amount,
      capture_type: "automatic",
      client_key: "",
      currency: i.currency,
      description: i.description,
      last_payment_error: null,
      next_action: null,
      payment_method_allowed: i.methods,
      payment_method_options: null,
      payments: [],
      setup_future_usage: null,
      statement_descriptor: i.statementDescriptor ?? null,
      status: "awaiting_payment_method",
      metadata: i.metadata,
    },
    { payments: [] },
  );
  intent.attributes["client_key"] = `${intent.id}_client_${randomBase62(24)}`;
  return intent;
}

export function createPaymentIntent(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const amount = r.integer("amount", { required: true, min: MINIMUM_AMOUNT });
  const currency = r.oneOf("currency", ["PHP"], { required: true });
  const methods = r.stringList("payment_method_allowed", { required: true, allowed: PAYMENT_INTENT_TYPES });
  const description = r.string("description", { maxLength: 255 });
  const statementDescriptor = r.string("statement_descriptor", { maxLength: 22 });
  const metadata = r.metadata();
  r.oneOf("capture_type", ["automatic"]);
  if (amount !== undefined && methods !== undefined) checkMethodAmounts(r, "amount", amount, methods, "payment_intent");
  r.done();
  const intent = newIntent(sim, req.account, {
    amount: amount!,
    currency: currency!,
    methods: methods!,
    description: description ?? null,
    metadata: metadata ?? null,
    statementDescriptor: statementDescriptor ?? null,
  });
  return { data: sim.state.render(intent) };
}

export function getPaymentIntent(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}

/**
 * Attaches a payment method. Redirect methods (e-wallets, `dob`, `brankas`) need `return_url`
 * and wait for the customer at `next_action.redirect.url` ([O] docs/payment-acceptance-e-wallets);
 * QR Ph gives a QR image whose timer starts now ([O]; the `consume_qr` type name is UNCONF).
 * Card attaches are not simulated here (Bayad never sends card details).
 */
export async function attachPaymentIntent(sim: Simulation, req: ApiRequest) {
  const intent = sim.state.owned(req.account, req.params[0], TYPE);
  const r = new AttributeReader(req.attributes);
  const methodId = r.string("payment_method", { required: true });
  const returnUrl = r.url("return_url");
  r.string("client_key");
  r.done();
  const method = sim.state.owned(req.account, methodId!, "payment_method", "payment_method");
  const status = intent.attributes["status"];
  if (status !== "awaiting_payment_method" && status !== "awaiting_next_action") {
    throw failedState(`The payment intent ${intent.id} is ${String(status)}; a payment method cannot be attached.`);
  }
  if (intent.internal["checkoutSessionId"]) {
    throw failedState(`The payment intent ${intent.id} belongs to a checkout session.`);
  }
  const type = method.attributes["type"] as string;
  if (!(intent.attributes["payment_method_allowed"] as string[]).includes(type)) {
    throw invalid("payment_method", "parameter_invalid", `The payment intent does not allow ${type} payments.`);
  }
  intent.internal["paymentMethodId"] = method.id;
  if (type === "qrph") {
    const expirySeconds = method.attributes["expiry_seconds"] as number;
    const code = sim.state.create(req.account, "qrph", "qrph", {
      amount: intent.attributes["amount"],
      currency: intent.attributes["currency"],
      payment_intent_id: intent.id,
      payment_method_id: method.id,
      status: "active",
      expires_at: unixNow() + expirySeconds,
    });
    const imageUrl = await qrImageDataUrl(`PAYMONGO-SIMULATOR/QRPH/${intent.id}/${code.id}`);
    intent.internal["qrCodeId"] = code.id;
    sim.state.update(intent, {
      status: "awaiting_next_action",
      last_payment_error: null,
      next_action: { type: "consume_qr", code: { id: code.id, amount: intent.attributes["amount"], label: null, image_url: imageUrl } },
    });
    sim.timers.after(expirySeconds * 1000, () => {
      if (intent.internal["qrCodeId"] === code.id && intent.attributes["status"] === "awaiting_next_action") {
        expireQr(sim, intent);
      }
    });
  } else if (REDIRECT_TYPES.includes(type)) {
    if (returnUrl === undefined) {
      throw invalid("return_url", "parameter_required", `return_url is required for ${type} payments.`);
    }
    sim.state.update(intent, {
      status: "awaiting_next_action",
      last_payment_error: null,
      next_action: { type: "redirect", redirect: { url: `${sim.state.baseUrl}/redirect/${intent.id}`, return_url: returnUrl } },
    });
  } else {
    throw invalid("payment_method", "parameter_invalid", `The simulator does not attach ${type} payment methods.`);
  }
  return { data: sim.state.render(intent) };
}

/** The method an intent is being paid with: the attached one, or `method` when none is. */
function methodFor(sim: Simulation, intent: StoredObject, method?: string): string {
  if (intent.internal["checkoutSessionId"]) {
    throw failedState(`The payment intent ${intent.id} belongs to a checkout session; pay the session.`);
  }
  const status = intent.attributes["status"];
  if (status === "awaiting_next_action") {
    const attached = sim.state.find(intent.internal["paymentMethodId"] as string)!;
    return attached.attributes["type"] as string;
  }
  if (status !== "awaiting_payment_method") {
    throw failedState(`The payment intent ${intent.id} is ${String(status)}.`);
  }
  const allowed = intent.attributes["payment_method_allowed"] as string[];
  const used = method ?? allowed[0];
  if (!allowed.includes(used)) throw failedState(`The payment intent ${intent.id} does not allow ${used}.`);
  return used;
}

export function payIntent(sim: Simulation, intent: StoredObject, method?: string): { paymentId: string } {
  const used = methodFor(sim, intent, method);
  const payment = createPayment(sim.state, intent, {
    amount: intent.attributes["amount"] as number,
    currency: intent.attributes["currency"] as string,
    description: (intent.attributes["description"] as string | null) ?? null,
    method: used,
    status: "paid",
    paymentIntentId: intent.id,
    metadata: (intent.attributes["metadata"] as Record<string, string> | null) ?? null,
    origin: "api",
  });
  (intent.refs["payments"] as string[]).push(payment.id);
  delete intent.internal["qrCodeId"];
  // A redirect payment passes through `processing` while the wallet or bank settles it [O]; the
  // simulator settles it at once, so only the webhook and the final read show.
  if (REDIRECT_TYPES.includes(used)) sim.state.update(intent, { status: "processing", next_action: null });
  sim.state.update(intent, { status: "succeeded", next_action: null, last_payment_error: null });
  sim.state.emit("payment.paid", payment);
  return { paymentId: payment.id };
}

export function failIntent(sim: Simulation, intent: StoredObject, opts: { code?: string; message?: string } = {}): void {
  const used = methodFor(sim, intent);
  // QR Ph rejections carry RJCT ([O] failed_code); others a generic decline.
  const code = opts.code ?? (used === "qrph" ? "RJCT" : "generic_decline");
  const message = opts.message ?? "The payment was declined.";
  const payment = createPayment(sim.state, intent, {
    amount: intent.attributes["amount"] as number,
    currency: intent.attributes["currency"] as string,
    description: (intent.attributes["description"] as string | null) ?? null,
    method: used,
    status: "failed",
    paymentIntentId: intent.id,
    metadata: (intent.attributes["metadata"] as Record<string, string> | null) ?? null,
    origin: "api",
    failedCode: code,
    failedMessage: message,
  });
  (intent.refs["payments"] as string[]).push(payment.id);
  delete intent.internal["qrCodeId"];
  sim.state.update(intent, {
    status: "awaiting_payment_method",
    next_action: null,
    // The shape of last_payment_error is UNCONF; the adapter reads it defensively.
    last_payment_error: {
      failed_code: code,
      failed_message: message,
      payment_method: (intent.internal["paymentMethodId"] as string | undefined) ?? null,
    },
  });
  sim.state.emit("payment.failed", payment);
}

/** The QR code runs out: the intent waits for a new method again, and `qrph.expired` ([3P]) says so. */
export function expireQr(sim: Simulation, intent: StoredObject): void {
  const codeId = intent.internal["qrCodeId"] as string | undefined;
  if (!codeId || intent.attributes["status"] !== "awaiting_next_action") {
    throw failedState(`The payment intent ${intent.id} has no QR Ph code waiting to be paid.`);
  }
  const code = sim.state.find(codeId)!;
  delete intent.internal["qrCodeId"];
  sim.state.update(code, { status: "expired" });
  sim.state.update(intent, { status: "awaiting_payment_method", next_action: null });
  sim.state.emit("qrph.expired", qrphExpiredData(code), code);
}

/**
 * The code as `qrph.expired` documents it [O docs/creating-webhook]: its own `created_at` an ISO
 * time in Manila's +08:00 (the event's envelope keeps unix seconds), `source_status: "expired"`.
 */
function qrphExpiredData(code: StoredObject): Rendered {
  const createdAt = new Date(((code.attributes["created_at"] as number) + 8 * 3600) * 1000).toISOString().replace(/\.\d{3}Z$/, "+08:00");
  return {
    id: code.id,
    type: "qrph",
    attributes: {
      code_id: code.id,
      livemode: code.livemode,
      organization_id: `org_${code.owner.slice(0, 24)}`,
      created_at: createdAt,
      source_id: code.attributes["payment_method_id"],
      source_status: "expired",
      payment_intent_id: code.attributes["payment_intent_id"],
    },
  };
}

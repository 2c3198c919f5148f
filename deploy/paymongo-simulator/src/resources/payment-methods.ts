import { AttributeReader } from "../attribute-reader.js";
import { BANK_CODES, PAYMENT_INTENT_TYPES } from "../payment-methods-catalogue.js";
import type { ApiRequest, Simulation } from "../simulation.js";

const TYPE = "payment_method";
/** QR Ph codes live 60 s to 2.5 h, 30 min unless asked ([O]); the timer starts at attach. */
export const QRPH_EXPIRY = { min: 60, max: 9000, default: 1800 };

export function createPaymentMethod(sim: Simulation, req: ApiRequest) {
  const r = new AttributeReader(req.attributes);
  const type = r.oneOf("type", PAYMENT_INTENT_TYPES, { required: true });
  const details = r.object("details");
  const banks = type !== undefined ? BANK_CODES[type] : undefined;
  // An online-banking method names its bank ([O]); PayMongo's exact codes for a missing or wrong one are UNCONF.
  if (banks) r.nested(details ?? {}, "details.").oneOf("bank_code", banks, { required: true });
  const billing = r.object("billing");
  const metadata = r.metadata();
  let expirySeconds: number | undefined;
  if (r.has("expiry_seconds") && type !== undefined && type !== "qrph") {
    r.fail("expiry_seconds", "parameter_invalid", "expiry_seconds is only for qrph payment methods.");
  } else {
    expirySeconds = r.integer("expiry_seconds", { min: QRPH_EXPIRY.min, max: QRPH_EXPIRY.max });
  }
  r.done();
  const attributes: Record<string, unknown> = {
    type,
    billing: billing ?? null,
    details: type === "card" ? cardDetails(details) : (details ?? null),
    metadata: metadata ?? null,
  };
  if (type === "qrph") attributes["expiry_seconds"] = expirySeconds ?? QRPH_EXPIRY.default;
  return { data: sim.state.render(sim.state.create(req.account, "pm", TYPE, attributes)) };
}

/** A card's number and CVC are never kept: only what PayMongo shows back (last 4, expiry). */
function cardDetails(details: Record<string, unknown> | undefined) {
  if (!details) return null;
  const number = typeof details["card_number"] === "string" ? details["card_number"] : "";
  return {
    last4: number.slice(-4) || null,
    exp_month: details["exp_month"] ?? null,
    exp_year: details["exp_year"] ?? null,
  };
}

export function getPaymentMethod(sim: Simulation, req: ApiRequest) {
  return { data: sim.state.render(sim.state.owned(req.account, req.params[0], TYPE)) };
}

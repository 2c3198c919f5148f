import { AppError, isValidAmountMinor } from "@bayad/kit";
import { crc16CcittFalse } from "./crc16.js";
import {
  encodeDataObject,
  encodeDataObjects,
  encodeTemplate,
  parseEmvTemplate,
  parseEmvTlv,
} from "./emv-tlv.js";

/** What a dynamic QR Ph code for one payment intent carries. */
export interface QrPhPayloadInput {
  /** Shown by the payer's wallet; sanitized to ASCII and cut to 25 characters. */
  merchantName: string;
  /** Sanitized to ASCII and cut to 15 characters. */
  merchantCity: string;
  /** ISO 18245 merchant category code, 4 digits, e.g. "5999". */
  merchantCategoryCode: string;
  /** The acquirer's BIC (e.g. "BAYDPHM2XXX"), which routes the payment to it. */
  acquirerId: string;
  /** The merchant's id at the acquirer. */
  merchantId: string;
  /** Centavos, a safe integer ≥ 1. */
  amountMinor: number;
  /** The consumer's reference; sanitized to ASCII and cut to 25 characters. */
  referenceId: string;
  /** Carried whole so a scanned code maps back to its payment intent. */
  paymentIntentId: string;
}

/** What `parseQrPhPayload` reads back from a code built by `buildQrPhPayload`. */
export interface ParsedQrPhPayload {
  amountMinor: number;
  currency: "PHP";
  /** As written into the code: sanitized and at most 25 characters. */
  referenceId: string;
  paymentIntentId: string;
  merchantName: string;
  merchantCity: string;
  /** False when data object 63 is missing, not last, or does not match the payload. */
  crcValid: boolean;
}

const ID = {
  payloadFormat: "00",
  initiationMethod: "01",
  merchantAccount: "28",
  merchantCategoryCode: "52",
  currency: "53",
  amount: "54",
  countryCode: "58",
  merchantName: "59",
  merchantCity: "60",
  additionalData: "62",
  crc: "63",
} as const;

// Inside template 28, as QR Ph person-to-merchant codes lay it out.
const ACCOUNT_ID = { guid: "00", acquirer: "01", merchantId: "03" } as const;
const QRPH_P2M_GUID = "ph.ppmi.p2m";

// Inside template 62. EMVCo caps its labels at 25 characters, shorter than a payment intent id
// ("pi_" + 24), so the id travels in a payment-system-specific template (IDs 50-99) of its own.
const ADDITIONAL_ID = { guid: "00", referenceLabel: "05", bayadTemplate: "50" } as const;
const QRPH_ADDITIONAL_GUID = "ph.ppmi.qrph";
const BAYAD_TEMPLATE_ID = { guid: "00", paymentIntentId: "01" } as const;
const BAYAD_GUID = "ph.bayad";

const DYNAMIC = "12";
const PHP_NUMERIC = "608";
const MAX_NAME = 25;
const MAX_CITY = 15;
const MAX_REFERENCE = 25;
const MAX_AMOUNT_TEXT = 13;
/** The largest amount data object 54 holds: "9999999999.99", its 13 characters. */
export const MAX_QRPH_AMOUNT_MINOR = 999_999_999_999;
// What template 62 leaves for the id once its GUID and a full reference label are in:
// 99 − (4+12) − (4+25) − 4 − (4+8) − 4.
const MAX_PAYMENT_INTENT_ID = 34;

function invalid(detail: string): AppError {
  return new AppError("VALIDATION_FAILED", "The QR Ph payload cannot be built.", { details: [detail] });
}

/**
 * Printable ASCII, one space between words, at most `maxLength` characters. Accents are folded
 * rather than dropped so "Parañaque" stays readable as "Paranaque" in the payer's wallet.
 */
function toEmvText(value: string, maxLength: number): string {
  return value
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/\s+/gu, " ")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, maxLength)
    .trimEnd();
}

/** Whether a text keeps at least one character once made EMV text (a name, a city, a reference). */
export function fitsQrPhText(value: string): boolean {
  return toEmvText(value, Number.POSITIVE_INFINITY).length > 0;
}

function requiredText(field: string, value: string, maxLength: number): string {
  const text = toEmvText(value, maxLength);
  if (text.length === 0) throw invalid(`${field}: must contain printable ASCII characters`);
  return text;
}

function formatAmount(amountMinor: number): string {
  if (!isValidAmountMinor(amountMinor)) throw invalid("amountMinor: must be a safe integer of at least 1");
  const text = `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, "0")}`;
  if (text.length > MAX_AMOUNT_TEXT) throw invalid(`amountMinor: gives ${text}, over ${MAX_AMOUNT_TEXT} characters`);
  return text;
}

/**
 * The text of a dynamic QR Ph person-to-merchant code for one payment: EMVCo merchant-presented
 * data objects with the QR Ph merchant account template (28) and the CRC (63) last. Names are
 * sanitized and cut to fit; an identifier that does not fit is rejected, never cut.
 */
export function buildQrPhPayload(input: QrPhPayloadInput): string {
  if (!/^\d{4}$/.test(input.merchantCategoryCode)) throw invalid("merchantCategoryCode: must be 4 digits");
  if (input.paymentIntentId.length > MAX_PAYMENT_INTENT_ID) {
    throw invalid(`paymentIntentId: must be at most ${MAX_PAYMENT_INTENT_ID} characters`);
  }
  const body = [
    encodeDataObject(ID.payloadFormat, "01"),
    encodeDataObject(ID.initiationMethod, DYNAMIC),
    encodeTemplate(ID.merchantAccount, [
      [ACCOUNT_ID.guid, QRPH_P2M_GUID],
      [ACCOUNT_ID.acquirer, input.acquirerId],
      [ACCOUNT_ID.merchantId, input.merchantId],
    ]),
    encodeDataObject(ID.merchantCategoryCode, input.merchantCategoryCode),
    encodeDataObject(ID.currency, PHP_NUMERIC),
    encodeDataObject(ID.amount, formatAmount(input.amountMinor)),
    encodeDataObject(ID.countryCode, "PH"),
    encodeDataObject(ID.merchantName, requiredText("merchantName", input.merchantName, MAX_NAME)),
    encodeDataObject(ID.merchantCity, requiredText("merchantCity", input.merchantCity, MAX_CITY)),
    encodeTemplate(ID.additionalData, [
      [ADDITIONAL_ID.guid, QRPH_ADDITIONAL_GUID],
      [ADDITIONAL_ID.referenceLabel, requiredText("referenceId", input.referenceId, MAX_REFERENCE)],
      [
        ADDITIONAL_ID.bayadTemplate,
        encodeDataObjects([
          [BAYAD_TEMPLATE_ID.guid, BAYAD_GUID],
          [BAYAD_TEMPLATE_ID.paymentIntentId, input.paymentIntentId],
        ]),
      ],
    ]),
  ].join("");
  const crcInput = `${body}${ID.crc}04`;
  return `${crcInput}${crc16CcittFalse(crcInput)}`;
}

function crcMatches(payload: string, objects: ReadonlyMap<string, string>): boolean {
  const lastId = [...objects.keys()].at(-1);
  const crc = objects.get(ID.crc);
  return lastId === ID.crc && crc !== undefined && /^[0-9A-F]{4}$/.test(crc)
    && crc16CcittFalse(payload.slice(0, -4)) === crc;
}

function parseAmount(text: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw unreadable(`amount "${text}" is not a decimal`);
  const minor = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!isValidAmountMinor(minor)) throw unreadable(`amount "${text}" is out of range`);
  return minor;
}

function unreadable(detail: string): AppError {
  return new AppError("VALIDATION_FAILED", "The QR Ph payload cannot be read.", { details: [detail] });
}

function required(objects: ReadonlyMap<string, string> | undefined, id: string, name: string): string {
  const value = objects?.get(id);
  if (value === undefined) throw unreadable(`${name} (data object ${id}) is missing`);
  return value;
}

/**
 * Reads back a code built by `buildQrPhPayload`, such as one a sandbox payer scanned, so it can
 * be matched to its payment intent. The CRC is recomputed and reported, not enforced, so the
 * caller decides what a damaged code means; a payload that is not a Bayad PHP code throws.
 */
export function parseQrPhPayload(payload: string): ParsedQrPhPayload {
  const objects = parseEmvTlv(payload);
  if (required(objects, ID.currency, "currency") !== PHP_NUMERIC) throw unreadable("currency is not PHP (608)");
  const additional = parseEmvTemplate(objects, ID.additionalData);
  const bayad = additional && parseEmvTemplate(additional, ADDITIONAL_ID.bayadTemplate);
  if (bayad?.get(BAYAD_TEMPLATE_ID.guid) !== BAYAD_GUID) throw unreadable("no Bayad payment intent template");
  return {
    amountMinor: parseAmount(required(objects, ID.amount, "amount")),
    currency: "PHP",
    referenceId: required(additional, ADDITIONAL_ID.referenceLabel, "reference label"),
    paymentIntentId: required(bayad, BAYAD_TEMPLATE_ID.paymentIntentId, "payment intent id"),
    merchantName: required(objects, ID.merchantName, "merchant name"),
    merchantCity: required(objects, ID.merchantCity, "merchant city"),
    crcValid: crcMatches(payload, objects),
  };
}

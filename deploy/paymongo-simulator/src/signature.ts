import { createHmac } from "node:crypto";

/**
 * `Paymongo-Signature: t=<unix>,te=<hex>,li=<hex>` ([O]): hex HMAC-SHA256 of `${t}.${rawBody}`
 * keyed with the webhook's secret_key, in `te` for a test-mode event and `li` for a live one; the
 * other field is left empty.
 */
export function paymongoSignature(secretKey: string, rawBody: string, livemode: boolean, t: number): string {
  const hex = createHmac("sha256", secretKey).update(`${t}.${rawBody}`).digest("hex");
  return `t=${t},te=${livemode ? "" : hex},li=${livemode ? hex : ""}`;
}

/**
 * An EMVCo merchant-presented QR payload for a QR Ph request, the string Xendit hands over for
 * the merchant to render [O]. Xendit's exact QRPH payload is UNCONF; this one has the EMVCo
 * structure (tag-length-value fields, dynamic point of initiation, PHP currency 608, country PH,
 * the amount, a CRC-16/CCITT checksum) so a renderer and a length check see a realistic string.
 */
export function qrPhString(reference: string, pesos: number): string {
  const fields = [
    tlv("00", "01"),
    tlv("01", "12"),
    tlv("27", tlv("00", "com.p2pqrpay") + tlv("01", "XENDITPH") + tlv("03", reference.slice(0, 25))),
    tlv("52", "0000"),
    tlv("53", "608"),
    tlv("54", pesos.toFixed(2)),
    tlv("58", "PH"),
    tlv("59", "BAYAD SIMULATED MERCHANT"),
    tlv("60", "MANILA"),
  ].join("");
  const withCrcTag = `${fields}6304`;
  return withCrcTag + crc16(withCrcTag);
}

function tlv(tag: string, value: string): string {
  return `${tag}${String(value.length).padStart(2, "0")}${value}`;
}

/** CRC-16/CCITT-FALSE over the payload, as EMVCo QR specifies, in 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

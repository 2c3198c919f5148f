const POLYNOMIAL = 0x1021;
const INITIAL = 0xffff;

/**
 * CRC-16/CCITT-FALSE of `text` as 4 uppercase hex digits: the checksum EMVCo and QR Ph put in
 * data object 63. Wallets reject a code whose checksum does not match, so the variant must be
 * exact: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR.
 */
export function crc16CcittFalse(text: string): string {
  let crc = INITIAL;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? (crc << 1) ^ POLYNOMIAL : crc << 1;
    }
    crc &= 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

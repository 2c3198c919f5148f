import QRCode from "qrcode";

/**
 * A PNG of the QR code for `payload`, for the checkout page to show. Level M survives the
 * smudges and glare of a phone screen being scanned by another phone; the four-module quiet zone
 * is what the QR standard requires for scanners to find the code.
 */
export async function renderQrPng(payload: string): Promise<Buffer> {
  return QRCode.toBuffer(payload, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 8 });
}

import QRCode from "qrcode";

/** A PNG of a QR code as a data URL, the form PayMongo gives in `next_action.code.image_url`. */
export async function qrImageDataUrl(payload: string): Promise<string> {
  return QRCode.toDataURL(payload, { type: "image/png", errorCorrectionLevel: "M", margin: 4, scale: 6 });
}

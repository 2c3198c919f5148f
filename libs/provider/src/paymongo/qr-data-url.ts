// jsqr is CommonJS typed as `export default`: under NodeNext the default import is the module
// object, whose `default` is the decoder (at run time the decoder's `default` is itself).
import jsqr from "jsqr";
import { PNG } from "pngjs";

export interface QrImage {
  /** The image as PayMongo gave it (a `data:` URL), usable directly as an <img> src. */
  dataUrl: string;
  /** The PNG's bytes in Base64, when the image is a PNG. */
  pngBase64?: string;
  /** The EMVCo payload the code holds, read back from the image; "" when it cannot be read. */
  payload: string;
}

const DATA_URL = /^data:([^;,]+)(;base64)?,(.*)$/s;

/**
 * Reads the QR Ph image of an attach answer. PayMongo gives only the image
 * (`next_action.code.image_url`), not the payload, so the payload is decoded from the PNG: it
 * lets the payments service show, parse and check the code as it does the sandbox's.
 */
export function readQrDataUrl(dataUrl: string): QrImage {
  const match = DATA_URL.exec(dataUrl);
  if (!match || match[1] !== "image/png" || match[2] === undefined) return { dataUrl, payload: "" };
  const pngBase64 = match[3];
  return { dataUrl, pngBase64, payload: decodeQrPayload(Buffer.from(pngBase64, "base64")) };
}

function decodeQrPayload(png: Buffer): string {
  try {
    const image = PNG.sync.read(png);
    return jsqr.default(Uint8ClampedArray.from(image.data), image.width, image.height)?.data ?? "";
  } catch {
    return "";
  }
}

// jsqr is CommonJS typed as `export default`: under NodeNext the default import is the module
// object, whose `default` is the decoder (at run time the decoder's `default` is itself).
import jsqr from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { buildQrPhPayload, parseQrPhPayload } from "./qrph-payload.js";
import { renderQrPng } from "./qr-image.js";

describe("renderQrPng", () => {
  it("renders a PNG that a QR reader decodes back to the exact payload", async () => {
    const payload = buildQrPhPayload({
      merchantName: "Kape Delivery Parañaque",
      merchantCity: "Makati",
      merchantCategoryCode: "5814",
      acquirerId: "BAYDPHM2XXX",
      merchantId: "MRCH000123",
      amountMinor: 123456789,
      referenceId: "order-1001",
      paymentIntentId: "pi_4fJ9kQ2mXz7LpR8sT1vW3yBn",
    });

    const png = PNG.sync.read(await renderQrPng(payload));
    const decoded = jsqr.default(Uint8ClampedArray.from(png.data), png.width, png.height);

    expect(decoded?.data).toBe(payload);
    expect(parseQrPhPayload(decoded?.data ?? "")).toMatchObject({
      amountMinor: 123456789,
      referenceId: "order-1001",
      paymentIntentId: "pi_4fJ9kQ2mXz7LpR8sT1vW3yBn",
      crcValid: true,
    });
  });
});

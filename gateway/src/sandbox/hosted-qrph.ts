import type Router from "@koa/router";
import type { Client } from "@connectrpc/connect";
import type { PaymentsService } from "@bayad/proto";
import { fromConnectError } from "@bayad/kit";
import { contentSecurityPolicy } from "../html.js";
import { setSandboxResponseHeaders } from "./sandbox-headers.js";

// An image loads nothing and runs nothing, and no page may frame it.
const imagePolicy = contentSecurityPolicy({ "default-src": ["'none'"], "frame-ancestors": ["'none'"] });

/**
 * The sandbox provider's QR Ph code images, served by the gateway at a QR Ph intent's
 * qrCodeImageUrl. Access is by the page token in the URL (the URL is the capability), never by a
 * project credential; a wrong token reads as a missing image.
 */
export function hostedQrPhRoutes(payments: Client<typeof PaymentsService>) {
  return (router: Router) => {
    router.get("/sandbox/qrph/:paymentIntentId.png", async (ctx) => {
      const token = String(ctx.query.token ?? "");
      setSandboxResponseHeaders(ctx, imagePolicy);
      try {
        const { png } = await payments.getQrPhImage({ paymentIntentId: ctx.params.paymentIntentId, pageToken: token });
        ctx.type = "image/png";
        ctx.body = Buffer.from(png);
      } catch (error) {
        ctx.status = fromConnectError(error).httpStatus;
        ctx.type = "text/plain";
        ctx.body = "This QR code does not exist.";
      }
    });
  };
}

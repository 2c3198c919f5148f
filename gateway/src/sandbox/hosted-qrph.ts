import type Router from "@koa/router";
import type { Client } from "@connectrpc/connect";
import type { PaymentsService } from "@bayad/proto";
import { fromConnectError } from "@bayad/kit";
import { contentSecurityPolicy } from "../html.js";
import { setSandboxResponseHeaders } from "./sandbox-headers.js";

// An image loads nothing and runs nothing, and no page may frame it.
const imagePolicy = contentSecurityPolicy({ "default-src": ["'none'"], "frame-ancestors": ["'none'"] });

/**
 * QR Ph code images, served by the gateway at a QR Ph intent's qrCodeImageUrl: the sandbox's,
 * and those a provider hands back as images (PayMongo's). Access is by the page token in the URL (the URL is the capability), never by a
 * project credential; a wrong token reads as a missing image.
 */
export function hostedQrPhRoutes(payments: Client<typeof PaymentsService>) {
  return (router: Router) => {
    // /sandbox/qrph: the sandbox's codes, drawn from their payload; /qrph: a provider's own images (PayMongo's).
    router.get(["/sandbox/qrph/:paymentIntentId.png", "/qrph/:paymentIntentId.png"], async (ctx) => {
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

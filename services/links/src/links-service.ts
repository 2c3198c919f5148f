import type { ServiceImpl } from "@connectrpc/connect";
import type { LinksService } from "@bayad/proto";
import { callerOf, mutatingCallerOf } from "@bayad/kit";
import { payerActionOf } from "@bayad/provider";
import {
  createPaymentLink,
  getHostedPaymentLink,
  getPaymentLink,
  listPaymentLinks,
  setPaymentLinkArchived,
  simulatePaymentLinkPayment,
  submitHostedPaymentLink,
  type PaymentLinksDeps,
} from "./payment-links/payment-links.js";
import { paymentLinkToProto } from "./payment-links/payment-link.js";

export interface LinksServiceDeps {
  paymentLinks: PaymentLinksDeps;
}

/** The LinksService rpc handlers: read the caller, call the domain, map to the response. */
export function createLinksService(deps: LinksServiceDeps): ServiceImpl<typeof LinksService> {
  const { paymentLinks } = deps;
  return {
    async createPaymentLink(request, context) {
      const link = await createPaymentLink(paymentLinks, mutatingCallerOf(context), {
        referenceId: request.referenceId,
        amountMinor: Number(request.amount?.amountMinor ?? 0n),
        description: request.description,
        remarks: request.remarks,
        metadata: request.metadata,
      });
      return { paymentLink: paymentLinkToProto(link) };
    },

    async listPaymentLinks(_request, context) {
      const links = await listPaymentLinks(paymentLinks, callerOf(context));
      return { paymentLinks: links.map(paymentLinkToProto) };
    },

    async getPaymentLink(request, context) {
      return { paymentLink: paymentLinkToProto(await getPaymentLink(paymentLinks, callerOf(context), request.paymentLinkId)) };
    },

    async setPaymentLinkArchived(request, context) {
      const link = await setPaymentLinkArchived(paymentLinks, mutatingCallerOf(context), request.paymentLinkId, request.archive);
      return { paymentLink: paymentLinkToProto(link) };
    },

    async simulatePaymentLinkPayment(request, context) {
      const action = payerActionOf(request.outcome);
      const link = await simulatePaymentLinkPayment(paymentLinks, mutatingCallerOf(context), request.paymentLinkId, action);
      return { paymentLink: paymentLinkToProto(link) };
    },

    async getHostedPaymentLink(request) {
      const link = await getHostedPaymentLink(paymentLinks, request.paymentLinkId, request.pageToken);
      return { paymentLink: paymentLinkToProto(link), environment: link.environment };
    },

    async submitHostedPaymentLink(request) {
      const action = payerActionOf(request.outcome);
      const link = await submitHostedPaymentLink(paymentLinks, request.paymentLinkId, request.pageToken, action);
      return { paymentLink: paymentLinkToProto(link) };
    },
  };
}

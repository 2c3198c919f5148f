import type { Client } from "@connectrpc/connect";
import { PaymentLinkStatusSchema, SimulatedOutcome, type LinksService, type PaymentLink } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import type { OperationHandlers } from "./operation.js";
import { dateField, moneyOf, moneyToJson, optionalField, required, type PublicUrl } from "./json.js";

function paymentLinkToJson(link: PaymentLink | undefined, publicUrl: PublicUrl) {
  const l = required(link, "payment link");
  return {
    paymentLinkId: l.paymentLinkId,
    referenceId: l.referenceId,
    amount: moneyToJson(l.amount),
    ...optionalField("description", l.description),
    ...optionalField("remarks", l.remarks),
    ...(l.url ? { url: publicUrl(l.url) } : {}),
    status: enumToText(PaymentLinkStatusSchema, l.status),
    active: l.active,
    archived: l.archived,
    ...optionalField("referenceNumber", l.referenceNumber),
    metadata: l.metadata,
    ...dateField("createdAt", l.createdAt),
    ...dateField("updatedAt", l.updatedAt),
  };
}

/** Payment links ⇄ LinksService rpcs. */
export function linksRoutes(links: Client<typeof LinksService>, publicUrl: PublicUrl): OperationHandlers {
  return {
    async createPaymentLink({ body }, { call }) {
      const response = await links.createPaymentLink(
        {
          referenceId: body.referenceId as string,
          amount: moneyOf(body),
          description: body.description as string,
          remarks: (body.remarks as string | undefined) ?? "",
          metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        },
        call,
      );
      return { status: 201, data: paymentLinkToJson(response.paymentLink, publicUrl) };
    },

    async listPaymentLinks(_input, { call }) {
      const response = await links.listPaymentLinks({}, call);
      return { status: 200, data: response.paymentLinks.map((link) => paymentLinkToJson(link, publicUrl)) };
    },

    async getPaymentLink({ params }, { call }) {
      const response = await links.getPaymentLink({ paymentLinkId: params.paymentLinkId }, call);
      return { status: 200, data: paymentLinkToJson(response.paymentLink, publicUrl) };
    },

    async setPaymentLinkArchived({ params, body }, { call }) {
      const response = await links.setPaymentLinkArchived(
        { paymentLinkId: params.paymentLinkId, archive: body.archive as boolean },
        call,
      );
      return { status: 200, data: paymentLinkToJson(response.paymentLink, publicUrl) };
    },

    async payPaymentLinkTestHelper({ params }, { call }) {
      const response = await links.simulatePaymentLinkPayment(
        { paymentLinkId: params.paymentLinkId, outcome: SimulatedOutcome.SUCCEED },
        call,
      );
      return { status: 200, data: paymentLinkToJson(response.paymentLink, publicUrl) };
    },
  };
}

import type { Client } from "@connectrpc/connect";
import { SimulatedOutcome, type LinksService } from "@bayad/proto";
import { paymentLinkToJson, type PublicUrl } from "@bayad/public-resources";
import type { OperationHandlers } from "./operation.js";
import { moneyOf } from "./json.js";

/** Payment links ⇄ LinksService rpcs. */
export function linksRoutes(links: Client<typeof LinksService>, publicUrl: PublicUrl): OperationHandlers {
  return {
    async createPaymentLink({ body }, { call }) {
      const response = await links.createPaymentLink(
        {
          referenceId: body.referenceId,
          amount: moneyOf(body.amount),
          description: body.description,
          remarks: body.remarks ?? "",
          metadata: body.metadata ?? {},
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
        { paymentLinkId: params.paymentLinkId, archive: body.archive },
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

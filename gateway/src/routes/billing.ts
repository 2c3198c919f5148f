import type { Client } from "@connectrpc/connect";
import { PlanIntervalSchema, ProrateSchema, SimulatedOutcome, type BillingService, type PaymentsService } from "@bayad/proto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { AppError, fromConnectError, textToEnum } from "@bayad/kit";
import { dateField, invoiceToJson, planChangePreviewToJson, planToJson, subscriptionToJson, type PublicUrl } from "@bayad/public-resources";
import type { Projects } from "../admin/projects.js";
import type { OperationContext, OperationHandler, OperationHandlers } from "./operation.js";

/**
 * A subscription's customer lives in the payments service, and services never read each
 * other's data, so the gateway resolves the reference before billing is asked: an unknown or
 * other project's customer is a 404 naming `customerId`. Customers are never deleted, so the
 * answer cannot go stale before the subscription is written.
 */
async function requireCustomer(payments: Client<typeof PaymentsService>, customerId: string, { call }: OperationContext) {
  try {
    await payments.getCustomer({ customerId }, call);
  } catch (error) {
    const failure = fromConnectError(error);
    if (failure.code !== "RESOURCE_NOT_FOUND") throw failure;
    throw new AppError("RESOURCE_NOT_FOUND", `No customer ${customerId} in this project.`, {
      details: ["customerId: no such customer in this project and environment"],
    });
  }
}

/** A plan change's body as billing takes it (the same for the change and its preview). */
function planChangeOf(body: { priceId: string; prorate: string; prorationDate?: string }) {
  return {
    priceId: body.priceId,
    prorate: textToEnum(ProrateSchema, body.prorate),
    ...(body.prorationDate !== undefined ? { prorationDate: timestampFromDate(new Date(body.prorationDate)) } : {}),
  };
}

/** Plans, subscriptions and invoices ⇄ BillingService rpcs. */
export function billingRoutes(
  billing: Client<typeof BillingService>,
  payments: Client<typeof PaymentsService>,
  publicUrl: PublicUrl,
  projects: Pick<Projects, "get">,
): OperationHandlers {
  const simulateInvoice = (outcome: SimulatedOutcome): OperationHandler<"payInvoiceTestHelper" | "failInvoiceTestHelper"> =>
    async ({ params }, { call }) => {
      const response = await billing.simulateInvoiceOutcome({ invoiceId: params.invoiceId, outcome }, call);
      return { status: 200, data: invoiceToJson(response.invoice, publicUrl) };
    };

  return {
    async createPlan({ body }, { call }) {
      const response = await billing.createPlan(
        {
          name: body.name,
          description: body.description ?? "",
          amount: BigInt(body.amount),
          currency: body.currency,
          interval: textToEnum(PlanIntervalSchema, body.interval),
          intervalCount: body.intervalCount,
          cycleCount: body.cycleCount ?? 0,
          trialDays: body.trialDays ?? 0,
          metadata: body.metadata ?? {},
        },
        call,
      );
      return { status: 201, data: planToJson(response.plan) };
    },

    async listPlans(_input, { call }) {
      const response = await billing.listPlans({}, call);
      return { status: 200, data: response.plans.map(planToJson) };
    },

    async getPlan({ params }, { call }) {
      const response = await billing.getPlan({ planId: params.planId }, call);
      return { status: 200, data: planToJson(response.plan) };
    },

    async createSubscription({ body }, context) {
      await requireCustomer(payments, body.customerId, context);
      // Projects live here; the customer's invoices and receipts are sent in the project's name.
      const project = await projects.get(context.caller.projectId);
      const response = await billing.createSubscription(
        {
          customerId: body.customerId,
          referenceId: body.referenceId,
          priceId: body.priceId,
          projectName: project?.name ?? "",
          ...(body.trialDays !== undefined ? { trialDays: body.trialDays } : {}),
        },
        context.call,
      );
      return { status: 201, data: subscriptionToJson(response.subscription) };
    },

    async getSubscription({ params }, { call }) {
      const response = await billing.getSubscription({ subscriptionId: params.subscriptionId }, call);
      return { status: 200, data: subscriptionToJson(response.subscription) };
    },

    async cancelSubscription({ params }, { call }) {
      const response = await billing.cancelSubscription({ subscriptionId: params.subscriptionId }, call);
      return { status: 200, data: subscriptionToJson(response.subscription) };
    },

    async changeSubscriptionPlan({ params, body }, { call }) {
      const response = await billing.changeSubscriptionPlan({ subscriptionId: params.subscriptionId, ...planChangeOf(body) }, call);
      return {
        status: 200,
        data: {
          subscription: subscriptionToJson(response.subscription),
          ...(response.invoice ? { invoice: invoiceToJson(response.invoice, publicUrl) } : {}),
        },
      };
    },

    async previewSubscriptionPlanChange({ params, body }, { call }) {
      const response = await billing.previewSubscriptionPlanChange({ subscriptionId: params.subscriptionId, ...planChangeOf(body) }, call);
      return { status: 200, data: planChangePreviewToJson(response.preview) };
    },

    async listSubscriptionInvoices({ params }, { call }) {
      const response = await billing.listSubscriptionInvoices({ subscriptionId: params.subscriptionId }, call);
      return { status: 200, data: response.invoices.map((invoice) => invoiceToJson(invoice, publicUrl)) };
    },

    async getInvoice({ params }, { call }) {
      const response = await billing.getInvoice({ invoiceId: params.invoiceId }, call);
      return { status: 200, data: invoiceToJson(response.invoice, publicUrl) };
    },

    async advanceSubscriptionTestHelper({ params }, { call }) {
      const response = await billing.advanceSubscription({ subscriptionId: params.subscriptionId }, call);
      return { status: 200, data: subscriptionToJson(response.subscription) };
    },

    async runBillingClockTestHelper({ body }, { call }) {
      const response = await billing.runBillingClock(body?.at ? { at: timestampFromDate(new Date(body.at)) } : {}, call);
      return {
        status: 200,
        data: {
          ...dateField("at", response.at),
          periodsClosed: response.periodsClosed,
          remindersSent: response.remindersSent,
          finalActions: response.finalActions,
        },
      };
    },

    payInvoiceTestHelper: simulateInvoice(SimulatedOutcome.SUCCEED),
    failInvoiceTestHelper: simulateInvoice(SimulatedOutcome.FAIL),
  };
}

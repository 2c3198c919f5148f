import type { ServiceImpl } from "@connectrpc/connect";
import type { BillingService } from "@bayad/proto";
import { callerOf, mutatingCallerOf } from "@bayad/kit";
import { payerActionOf } from "@bayad/provider";
import type { BillingDeps } from "./billing-deps.js";
import { intervalOf, planToProto } from "./plans/plan.js";
import { createPlan, getPlan, listPlans } from "./plans/plans.js";
import { subscriptionToProto } from "./subscriptions/subscription.js";
import {
  advanceSubscription,
  cancelSubscription,
  createSubscription,
  getSubscription,
  listSubscriptionInvoices,
} from "./subscriptions/subscriptions.js";
import { invoiceToProto } from "./invoices/invoice.js";
import { getHostedInvoice, getInvoice, simulateInvoiceOutcome, submitHostedInvoice } from "./invoices/invoices.js";

/** The BillingService rpc handlers: read the caller, call the domain, map to the response. */
export function createBillingService(deps: BillingDeps): ServiceImpl<typeof BillingService> {
  return {
    async createPlan(request, context) {
      const plan = await createPlan(deps, mutatingCallerOf(context), {
        name: request.name,
        description: request.description,
        amountMinor: Number(request.amount),
        currency: request.currency,
        interval: intervalOf(request.interval),
        intervalCount: request.intervalCount,
        cycleCount: request.cycleCount,
        metadata: request.metadata,
      });
      return { plan: planToProto(plan) };
    },

    async listPlans(_request, context) {
      return { plans: (await listPlans(deps, callerOf(context))).map(planToProto) };
    },

    async getPlan(request, context) {
      return { plan: planToProto(await getPlan(deps, callerOf(context), request.planId)) };
    },

    async createSubscription(request, context) {
      const subscription = await createSubscription(deps, mutatingCallerOf(context), {
        customerId: request.customerId,
        referenceId: request.referenceId,
        priceId: request.priceId,
      });
      return { subscription: subscriptionToProto(subscription) };
    },

    async getSubscription(request, context) {
      return { subscription: subscriptionToProto(await getSubscription(deps, callerOf(context), request.subscriptionId)) };
    },

    async cancelSubscription(request, context) {
      return { subscription: subscriptionToProto(await cancelSubscription(deps, mutatingCallerOf(context), request.subscriptionId)) };
    },

    async listSubscriptionInvoices(request, context) {
      const invoices = await listSubscriptionInvoices(deps, callerOf(context), request.subscriptionId);
      return { invoices: invoices.map(invoiceToProto) };
    },

    async getInvoice(request, context) {
      return { invoice: invoiceToProto(await getInvoice(deps, callerOf(context), request.invoiceId)) };
    },

    async advanceSubscription(request, context) {
      return { subscription: subscriptionToProto(await advanceSubscription(deps, mutatingCallerOf(context), request.subscriptionId)) };
    },

    async simulateInvoiceOutcome(request, context) {
      const invoice = await simulateInvoiceOutcome(deps, mutatingCallerOf(context), request.invoiceId, payerActionOf(request.outcome));
      return { invoice: invoiceToProto(invoice) };
    },

    async getHostedInvoice(request) {
      const page = await getHostedInvoice(deps, request.invoiceId, request.pageToken);
      return { invoice: invoiceToProto(page.invoice), environment: page.invoice.environment, planName: page.planName };
    },

    async submitHostedInvoice(request) {
      const action = payerActionOf(request.outcome);
      return { invoice: invoiceToProto(await submitHostedInvoice(deps, request.invoiceId, request.pageToken, action)) };
    },
  };
}

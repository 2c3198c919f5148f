import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { BillingSettingsSchema, OutboxMessageSchema, PlanChangePreviewSchema, Prorate, type BillingService } from "@bayad/proto";
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { AppError, callerOf, mutatingCallerOf } from "@bayad/kit";
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
import { invoiceLineToProto, invoiceToProto } from "./invoices/invoice.js";
import { changePlan, previewPlanChange, type PlanChangeInput } from "./plan-changes/plan-changes.js";
import { getHostedInvoice, getInvoice, simulateInvoiceOutcome, submitHostedInvoice } from "./invoices/invoices.js";
import type { BillingSettings } from "./messages/billing-settings.js";
import { runBillingClock } from "./clock/billing-clock.js";
import type { InvoiceMessaging } from "./messages/invoice-messages-deps.js";

const settingsToProto = (settings: BillingSettings) =>
  create(BillingSettingsSchema, {
    projectId: settings.projectId,
    smsEnabled: settings.smsEnabled,
    defaultLocale: settings.defaultLocale,
    supportContact: settings.supportContact ?? "",
    dunning: { steps: settings.dunning.steps.map((step) => ({ offsetDays: step.offsetDays })), finalAction: settings.dunning.finalAction },
  });

const outboxKinds = ["invoice", "reminder", "receipt"] as const;

/** How far ahead of now test mode may run the billing clock (a weekly plan: about a hundred periods). */
const MAX_CLOCK_AHEAD_MS = 2 * 366 * 24 * 60 * 60 * 1000;

const prorateOf = (value: Prorate) => (value === Prorate.NOW ? "now" : value === Prorate.AT_PERIOD_END ? "at_period_end" : undefined);
const protoProrate = { now: Prorate.NOW, at_period_end: Prorate.AT_PERIOD_END } as const;

function planChangeInput(request: { priceId: string; prorate: Prorate; prorationDate?: Timestamp }): PlanChangeInput {
  return {
    priceId: request.priceId,
    prorate: prorateOf(request.prorate),
    ...(request.prorationDate ? { prorationDate: timestampDate(request.prorationDate) } : {}),
  };
}

/** The BillingService rpc handlers: read the caller, call the domain, map to the response. */
export function createBillingService(deps: BillingDeps, messaging?: Pick<InvoiceMessaging, "devOutbox" | "deps">): ServiceImpl<typeof BillingService> {
  const { settings } = deps;
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
        trialDays: request.trialDays,
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
        projectName: request.projectName || undefined,
        ...(request.trialDays !== undefined ? { trialDays: request.trialDays } : {}),
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

    async changeSubscriptionPlan(request, context) {
      const changed = await changePlan(deps, mutatingCallerOf(context), request.subscriptionId, planChangeInput(request));
      return {
        subscription: subscriptionToProto(changed.subscription),
        ...(changed.invoice ? { invoice: invoiceToProto(changed.invoice) } : {}),
      };
    },

    async previewSubscriptionPlanChange(request, context) {
      const quote = await previewPlanChange(deps, callerOf(context), request.subscriptionId, planChangeInput(request));
      return {
        preview: create(PlanChangePreviewSchema, {
          subscriptionId: request.subscriptionId,
          priceId: quote.plan._id,
          prorate: protoProrate[quote.prorate],
          effectiveAt: timestampFromDate(quote.effectiveAt),
          prorationDate: timestampFromDate(quote.prorationDate),
          lines: quote.lines.map(invoiceLineToProto),
          total: BigInt(quote.totalMinor),
          amountDue: BigInt(quote.amountDueMinor),
          creditCarried: BigInt(quote.creditCarriedMinor),
        }),
      };
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

    async runBillingClock(request, context) {
      const caller = callerOf(context);
      if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
      const at = request.at ? timestampDate(request.at) : undefined;
      if (at && at.getTime() > deps.now().getTime() + MAX_CLOCK_AHEAD_MS) {
        throw new AppError("VALIDATION_FAILED", "The clock runs at most two years ahead.", { details: ["at: must be at most two years from now"] });
      }
      const run = await runBillingClock({ billing: deps, messaging: messaging?.deps }, caller, at);
      return { at: timestampFromDate(run.at), periodsClosed: run.periodsClosed, remindersSent: run.remindersSent, finalActions: run.finalActions };
    },

    async getHostedInvoice(request) {
      const page = await getHostedInvoice(deps, request.invoiceId, request.pageToken);
      return { invoice: invoiceToProto(page.invoice), environment: page.invoice.environment, planName: page.planName };
    },

    async submitHostedInvoice(request) {
      const action = payerActionOf(request.outcome);
      return { invoice: invoiceToProto(await submitHostedInvoice(deps, request.invoiceId, request.pageToken, action)) };
    },

    /** Operators only (the gateway's admin API, which checked the project exists). */
    async getBillingSettings(request) {
      if (request.projectId === "") throw new AppError("VALIDATION_FAILED", "The projectId is required.", { details: ["projectId: is required"] });
      return { billingSettings: settingsToProto(await settings.get(request.projectId)) };
    },

    async putBillingSettings(request) {
      const input = request.billingSettings;
      if (!input) throw new AppError("VALIDATION_FAILED", "The billing settings are required.", { details: ["billingSettings: is required"] });
      const saved = await settings.put(
        {
          projectId: input.projectId,
          smsEnabled: input.smsEnabled,
          defaultLocale: input.defaultLocale,
          supportContact: input.supportContact,
          ...(input.dunning ? { dunning: { steps: input.dunning.steps, finalAction: input.dunning.finalAction } } : {}),
        },
        deps.now(),
      );
      return { billingSettings: settingsToProto(saved) };
    },

    /**
     * Operators only, like the OTP service's listDevMessages: the invoices and receipts the
     * development outbox holds for a project (test mode's, and live mode's while a channel uses it).
     */
    async listOutboxMessages(request) {
      if (!messaging) throw new AppError("RESOURCE_NOT_FOUND", "The development outbox is off (no payments service to find customers).");
      if (request.projectId === "") throw new AppError("VALIDATION_FAILED", "The projectId is required.", { details: ["projectId: is required"] });
      const kind = request.kind === "" ? undefined : outboxKinds.find((known) => known === request.kind);
      if (request.kind !== "" && !kind) {
        throw new AppError("VALIDATION_FAILED", "The kind is not one billing sends.", { details: ["kind: must be invoice, reminder or receipt"] });
      }
      const held = await messaging.devOutbox.list({ projectId: request.projectId, ...(kind ? { kind } : {}) });
      return {
        messages: held
          .filter((message) => message.kind !== "otp")
          .map((message) =>
            create(OutboxMessageSchema, {
              messageId: message._id,
              kind: message.kind,
              channel: message.channel,
              recipient: message.recipient,
              projectId: message.projectId,
              locale: message.locale,
              invoiceId: message.resourceId,
              subject: message.subject,
              body: message.body,
              html: message.html ?? "",
              sentAt: timestampFromDate(message.sentAt),
            }),
          ),
      };
    },

    /**
     * Operators only (`bayad secrets reseal`): the development outbox's messages, billing's only
     * sealed values, sealed again under the newest key of SECRETS_KEY; nothing without messages.
     */
    async resealBillingMessages() {
      return { counts: messaging ? await messaging.devOutbox.resealSecrets() : { resealed: 0, current: 0, unreadable: 0 } };
    },
  };
}

import {
  InvoiceStatusSchema,
  PlanIntervalSchema,
  SubscriptionStatusSchema,
  type Invoice,
  type Plan,
  type Subscription,
} from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { dateField, moneyToJson, optionalField, required, type PublicUrl } from "./json.js";

export function planToJson(plan: Plan | undefined) {
  const p = required(plan, "plan");
  return {
    planId: p.planId,
    name: p.name,
    ...optionalField("description", p.description),
    amount: Number(p.amount),
    currency: p.currency,
    interval: enumToText(PlanIntervalSchema, p.interval),
    intervalCount: p.intervalCount,
    ...optionalField("cycleCount", p.cycleCount),
    ...optionalField("metadata", p.metadata),
  };
}

export function subscriptionToJson(subscription: Subscription | undefined) {
  const s = required(subscription, "subscription");
  return {
    subscriptionId: s.subscriptionId,
    customerId: s.customerId,
    status: enumToText(SubscriptionStatusSchema, s.status),
    ...dateField("currentPeriodStart", s.currentPeriodStart),
    ...dateField("currentPeriodEnd", s.currentPeriodEnd),
    referenceId: s.referenceId,
    priceId: s.planId,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  };
}

export function invoiceToJson(invoice: Invoice | undefined, publicUrl: PublicUrl) {
  const i = required(invoice, "invoice");
  return {
    invoiceId: i.invoiceId,
    status: enumToText(InvoiceStatusSchema, i.status),
    amount: moneyToJson(i.amount),
    subscriptionId: i.subscriptionId,
    ...dateField("periodStart", i.periodStart),
    ...dateField("periodEnd", i.periodEnd),
    ...(i.hostedInvoiceUrl ? { hostedInvoiceUrl: publicUrl(i.hostedInvoiceUrl) } : {}),
    dunningStep: i.dunningStep,
    ...dateField("nextDunningAt", i.nextDunningAt),
  };
}

import {
  InvoiceLineKindSchema,
  InvoiceStatusSchema,
  ProrateSchema,
  PlanIntervalSchema,
  SubscriptionStatusSchema,
  type Invoice,
  type InvoiceLine,
  type Plan,
  type PlanChangePreview,
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
    ...optionalField("trialDays", p.trialDays),
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
    ...dateField("trialEnd", s.trialEnd),
    ...(s.pendingPlanChange
      ? {
          pendingPlanChange: {
            priceId: s.pendingPlanChange.planId,
            amount: Number(s.pendingPlanChange.amount),
            ...dateField("effectiveAt", s.pendingPlanChange.effectiveAt),
          },
        }
      : {}),
    ...(s.creditBalance > 0n ? { creditBalance: { amountMinor: Number(s.creditBalance), currency: "PHP" } } : {}),
  };
}

export function invoiceLineToJson(line: InvoiceLine) {
  return { description: line.description, amountMinor: Number(line.amountMinor), kind: enumToText(InvoiceLineKindSchema, line.kind) };
}

export function planChangePreviewToJson(preview: PlanChangePreview | undefined) {
  const p = required(preview, "preview");
  return {
    subscriptionId: p.subscriptionId,
    priceId: p.priceId,
    prorate: enumToText(ProrateSchema, p.prorate),
    ...dateField("effectiveAt", p.effectiveAt),
    ...dateField("prorationDate", p.prorationDate),
    lines: p.lines.map(invoiceLineToJson),
    total: Number(p.total),
    amountDue: Number(p.amountDue),
    creditCarried: Number(p.creditCarried),
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
    ...(i.lines.length > 0 ? { lines: i.lines.map(invoiceLineToJson) } : {}),
  };
}

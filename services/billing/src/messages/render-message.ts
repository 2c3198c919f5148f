import type { MessageLocale } from "@bayad/messaging";
import { formatPesos } from "./peso-amount.js";
import { en } from "./templates/en.js";
import { fil } from "./templates/fil.js";
import { manilaDaysUntil } from "../dunning/dunning-schedule.js";
import { isReminderStep, type InvoiceFacts, type InvoiceStep, type LocaleTemplates, type MessageTemplate } from "./templates/template.js";

const templates: Record<MessageLocale, LocaleTemplates> = { en, fil };

/** What a message about an invoice is made of, before any formatting. */
export interface InvoiceMessageInput {
  projectName: string;
  supportContact?: string;
  customerName?: string;
  planName: string;
  invoiceId: string;
  amountMinor: number;
  periodStart: Date;
  periodEnd: Date;
  /** Invoices are due by the end of their period. */
  dueAt: Date;
  hostedUrl: string;
  paidAt?: Date;
  /** A reminder's time (the dunning run's): it counts the Manila days to the due date from then. */
  asOf?: Date;
}

export interface RenderedMessage {
  subject: string;
  /** The e-mail's plain-text part. */
  text: string;
  /** The e-mail's HTML part. */
  html: string;
  /** The SMS. */
  sms: string;
}

/** Manila is UTC+8 all year (no daylight saving): customers read dates there. */
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** `February 7, 2027` / `Pebrero 7, 2027`: the day in Manila, with the language's month name. */
export function formatDate(at: Date, locale: MessageLocale): string {
  const manila = new Date(at.getTime() + MANILA_OFFSET_MS);
  return `${templates[locale].monthNames[manila.getUTCMonth()]} ${manila.getUTCDate()}, ${manila.getUTCFullYear()}`;
}

/** The message of `step` about an invoice, in `locale`: e-mail subject, text and HTML parts, and the SMS. */
export function renderInvoiceMessage(step: InvoiceStep, locale: MessageLocale, input: InvoiceMessageInput): RenderedMessage {
  const facts: InvoiceFacts = {
    projectName: input.projectName,
    ...(input.supportContact ? { supportContact: input.supportContact } : {}),
    ...(input.customerName ? { customerName: input.customerName } : {}),
    invoiceId: input.invoiceId,
    planName: input.planName,
    amount: formatPesos(input.amountMinor),
    periodStart: formatDate(input.periodStart, locale),
    periodEnd: formatDate(input.periodEnd, locale),
    dueDate: formatDate(input.dueAt, locale),
    hostedUrl: input.hostedUrl,
    ...(input.paidAt ? { paidAt: formatDate(input.paidAt, locale) } : {}),
  };
  const template = isReminderStep(step)
    ? templates[locale].reminder(facts, manilaDaysUntil(input.dueAt, input.asOf ?? input.dueAt))
    : templates[locale].steps[step](facts);
  return { subject: template.subject, text: textOf(template), html: htmlOf(template, locale), sms: template.sms };
}

function textOf(template: MessageTemplate): string {
  const lines = [template.greeting, "", ...template.paragraphs, "", ...template.facts.map(([label, value]) => `${label}: ${value}`)];
  if (template.action) lines.push("", `${template.action.label}: ${template.action.url}`);
  if (template.closing) lines.push("", template.closing);
  return `${lines.join("\n")}\n`;
}

function htmlOf(template: MessageTemplate, locale: MessageLocale): string {
  const rows = template.facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
  return [
    `<!doctype html>`,
    `<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(template.subject)}</title></head><body>`,
    `<p>${escapeHtml(template.greeting)}</p>`,
    ...template.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<table>${rows.join("")}</table>`,
    ...(template.action ? [`<p><a href="${escapeHtml(template.action.url)}">${escapeHtml(template.action.label)}</a></p>`] : []),
    ...(template.closing ? [`<p>${escapeHtml(template.closing)}</p>`] : []),
    `</body></html>`,
  ].join("\n");
}

/** Every value in the HTML part is text: a project or customer name cannot add markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

import type { InvoiceFacts, LocaleTemplates } from "./template.js";

const greeting = (facts: InvoiceFacts) => (facts.customerName ? `Hello ${facts.customerName},` : "Hello,");
const closing = (facts: InvoiceFacts) => (facts.supportContact ? `Questions? Contact ${facts.projectName} at ${facts.supportContact}.` : undefined);

/** English. SMS texts start with the project's kind of message, never with "TEST" (Semaphore drops those). */
export const en: LocaleTemplates = {
  monthNames: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  steps: {
    invoice: (facts) => ({
      subject: `Invoice from ${facts.projectName}: ${facts.amount} due ${facts.dueDate}`,
      greeting: greeting(facts),
      paragraphs: [`${facts.projectName} has sent you an invoice for ${facts.planName}.`],
      facts: [
        ["Amount due", facts.amount],
        ["Period", `${facts.periodStart} to ${facts.periodEnd}`],
        ["Due date", facts.dueDate],
        ["Invoice", facts.invoiceId],
      ],
      action: { label: "Pay your invoice", url: facts.hostedUrl },
      closing: closing(facts),
      sms: `Invoice from ${facts.projectName}: ${facts.amount} due ${facts.dueDate}. Pay at ${facts.hostedUrl}`,
    }),
    receipt: (facts) => ({
      subject: `Receipt from ${facts.projectName}: ${facts.amount} paid`,
      greeting: greeting(facts),
      paragraphs: [`Thank you. ${facts.projectName} has received your payment for ${facts.planName}.`],
      facts: [
        ["Amount paid", facts.amount],
        ["Period", `${facts.periodStart} to ${facts.periodEnd}`],
        ["Paid on", facts.paidAt ?? facts.dueDate],
        ["Invoice", facts.invoiceId],
      ],
      closing: closing(facts),
      sms: `Receipt from ${facts.projectName}: ${facts.amount} paid for invoice ${facts.invoiceId}. Thank you.`,
    }),
  },
  reminder: (facts, daysUntilDue) => {
    const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;
    const when = daysUntilDue > 0 ? `due in ${days(daysUntilDue)}` : daysUntilDue === 0 ? "due today" : `overdue by ${days(-daysUntilDue)}`;
    const lead =
      daysUntilDue > 0
        ? `Your invoice from ${facts.projectName} for ${facts.planName} is due in ${days(daysUntilDue)}, on ${facts.dueDate}.`
        : daysUntilDue === 0
          ? `Your invoice from ${facts.projectName} for ${facts.planName} is due today, ${facts.dueDate}.`
          : `Your invoice from ${facts.projectName} for ${facts.planName} is overdue by ${days(-daysUntilDue)}: it was due on ${facts.dueDate}.`;
    return {
      subject: `Reminder from ${facts.projectName}: ${facts.amount} ${when}`,
      greeting: greeting(facts),
      paragraphs: [lead, "If you have paid it already, thank you: please disregard this reminder."],
      facts: [
        ["Amount due", facts.amount],
        ["Period", `${facts.periodStart} to ${facts.periodEnd}`],
        ["Due date", facts.dueDate],
        ["Invoice", facts.invoiceId],
      ],
      action: { label: "Pay your invoice", url: facts.hostedUrl },
      closing: closing(facts),
      sms: `Reminder from ${facts.projectName}: ${facts.amount} ${when}. Pay at ${facts.hostedUrl}`,
    };
  },
};

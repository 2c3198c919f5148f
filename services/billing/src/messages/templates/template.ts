/** What a message about an invoice says, whatever its step: already formatted for its language. */
export interface InvoiceFacts {
  projectName: string;
  /** Where the customer may ask; absent: not mentioned. */
  supportContact?: string;
  customerName?: string;
  invoiceId: string;
  planName: string;
  /** `₱1,234.50`. */
  amount: string;
  periodStart: string;
  periodEnd: string;
  dueDate: string;
  /** The hosted payment page. */
  hostedUrl: string;
  /** When it was paid (a receipt). */
  paidAt?: string;
}

/**
 * One message of one step in one language, as parts: the e-mail's plain-text and HTML parts are
 * both rendered from them (render-message.ts), the SMS is its own short text.
 */
export interface MessageTemplate {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Label and value, one a line: amount, period, due date. */
  facts: Array<[string, string]>;
  /** The link the customer follows, with its label. */
  action?: { label: string; url: string };
  /** A closing line (where to ask), when there is one. */
  closing?: string;
  sms: string;
}

/** A dunning step's reminder, named by its offset in days from the due date (`reminder:-3`, `reminder:0`, `reminder:7`). */
export type ReminderStep = `reminder:${number}`;

/** The steps an invoice's messages are sent at: it opened, a dunning reminder, it was paid. */
export type InvoiceStep = "invoice" | "receipt" | ReminderStep;

export const reminderStep = (offsetDays: number): ReminderStep => `reminder:${offsetDays}`;

export const isReminderStep = (step: InvoiceStep): step is ReminderStep => step.startsWith("reminder:");

/** What a step's message is, to its senders and the development outbox: every reminder is a `reminder`. */
export const messageKindOf = (step: InvoiceStep): "invoice" | "receipt" | "reminder" => (isReminderStep(step) ? "reminder" : step);

/** Each step's message in one language, and how that language names the months. */
export interface LocaleTemplates {
  monthNames: readonly string[];
  steps: Record<"invoice" | "receipt", (facts: InvoiceFacts) => MessageTemplate>;
  /**
   * A reminder of an unpaid invoice, `daysUntilDue` Manila days before its due date (3: "due in
   * 3 days"), on it (0: "due today") or after it (-3: "overdue by 3 days").
   */
  reminder: (facts: InvoiceFacts, daysUntilDue: number) => MessageTemplate;
}

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

/** The steps an invoice's messages are sent at; a reminder will be another. */
export type InvoiceStep = "invoice" | "receipt";

/** Each step's message in one language, and how that language names the months. */
export interface LocaleTemplates {
  monthNames: readonly string[];
  steps: Record<InvoiceStep, (facts: InvoiceFacts) => MessageTemplate>;
}

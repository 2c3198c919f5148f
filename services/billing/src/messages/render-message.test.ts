import { describe, expect, it } from "vitest";
import { formatDate, renderInvoiceMessage, type InvoiceMessageInput } from "./render-message.js";

const input: InvoiceMessageInput = {
  projectName: "Kape ni Juan",
  supportContact: "help@kape.ph",
  customerName: "Maria",
  planName: "Gold",
  invoiceId: "inv_123",
  amountMinor: 123_450,
  // Jan 31 and Feb 7 in Manila (UTC+8), however late in the UTC day.
  periodStart: new Date("2027-01-30T20:00:00.000Z"),
  periodEnd: new Date("2027-02-06T20:00:00.000Z"),
  dueAt: new Date("2027-02-06T20:00:00.000Z"),
  hostedUrl: "https://pay.example/invoices/inv_123?token=abc",
};

describe("invoice messages", () => {
  it("writes an invoice in English: amount, period, due date, link, project and support contact in every part", () => {
    const message = renderInvoiceMessage("invoice", "en", input);
    expect(message.subject).toBe("Invoice from Kape ni Juan: ₱1,234.50 due February 7, 2027");
    expect(message.text).toBe(
      [
        "Hello Maria,",
        "",
        "Kape ni Juan has sent you an invoice for Gold.",
        "",
        "Amount due: ₱1,234.50",
        "Period: January 31, 2027 to February 7, 2027",
        "Due date: February 7, 2027",
        "Invoice: inv_123",
        "",
        "Pay your invoice: https://pay.example/invoices/inv_123?token=abc",
        "",
        "Questions? Contact Kape ni Juan at help@kape.ph.",
        "",
      ].join("\n"),
    );
    expect(message.html).toContain('<html lang="en">');
    expect(message.html).toContain("<th align=\"left\">Amount due</th><td>₱1,234.50</td>");
    expect(message.html).toContain('<a href="https://pay.example/invoices/inv_123?token=abc">Pay your invoice</a>');
    expect(message.sms).toBe("Invoice from Kape ni Juan: ₱1,234.50 due February 7, 2027. Pay at https://pay.example/invoices/inv_123?token=abc");
  });

  it("writes an invoice in Filipino", () => {
    const message = renderInvoiceMessage("invoice", "fil", input);
    expect(message.subject).toBe("Singil mula sa Kape ni Juan: ₱1,234.50, bayaran bago ang Pebrero 7, 2027");
    expect(message.text).toContain("Pinadalhan ka ng Kape ni Juan ng singil para sa Gold.");
    expect(message.text).toContain("Halagang babayaran: ₱1,234.50\nPanahon: Enero 31, 2027 hanggang Pebrero 7, 2027\nTakdang petsa: Pebrero 7, 2027");
    expect(message.text).toContain("Bayaran ang singil: https://pay.example/invoices/inv_123?token=abc");
    expect(message.text).toContain("May tanong? Makipag-ugnayan sa Kape ni Juan sa help@kape.ph.");
    expect(message.html).toContain('<html lang="fil">');
    expect(message.sms).toBe("Singil mula sa Kape ni Juan: ₱1,234.50, bayaran bago ang Pebrero 7, 2027. Magbayad sa https://pay.example/invoices/inv_123?token=abc");
  });

  it("writes a receipt in both languages, with the day it was paid and no payment link", () => {
    const paid = { ...input, paidAt: new Date("2027-02-01T17:30:00.000Z") };
    const english = renderInvoiceMessage("receipt", "en", paid);
    expect(english.subject).toBe("Receipt from Kape ni Juan: ₱1,234.50 paid");
    expect(english.text).toContain("Amount paid: ₱1,234.50");
    expect(english.text).toContain("Paid on: February 2, 2027");
    expect(english.text).not.toContain(input.hostedUrl);
    const filipino = renderInvoiceMessage("receipt", "fil", paid);
    expect(filipino.subject).toBe("Resibo mula sa Kape ni Juan: ₱1,234.50 bayad na");
    expect(filipino.text).toContain("Binayaran noong: Pebrero 2, 2027");
    expect(filipino.sms).toBe("Resibo mula sa Kape ni Juan: ₱1,234.50 bayad na para sa singil inv_123. Salamat.");
  });

  it("leaves out the greeting's name and the support line when there are none, and escapes names in the HTML", () => {
    const message = renderInvoiceMessage("invoice", "en", { ...input, customerName: undefined, supportContact: undefined, projectName: "A & <B>" });
    expect(message.text.startsWith("Hello,\n")).toBe(true);
    expect(message.text).not.toContain("Questions?");
    expect(message.html).toContain("A &amp; &lt;B&gt; has sent you an invoice");
    expect(message.html).not.toContain("<B>");
  });

  it("keeps every SMS short enough for a few SMS parts, and never starting with TEST", () => {
    for (const locale of ["en", "fil"] as const) {
      for (const step of ["invoice", "receipt"] as const) {
        const { sms } = renderInvoiceMessage(step, locale, { ...input, paidAt: input.dueAt });
        expect(sms.length).toBeLessThanOrEqual(200);
        expect(sms.toUpperCase().startsWith("TEST")).toBe(false);
      }
    }
  });

  it("dates in Manila time", () => {
    expect(formatDate(new Date("2027-12-31T16:00:00.000Z"), "en")).toBe("January 1, 2028");
    expect(formatDate(new Date("2027-12-31T15:59:59.999Z"), "fil")).toBe("Disyembre 31, 2027");
  });
  it("writes reminders counting Manila days to the due date from the reminder's time, in English and Filipino", () => {
    // Due Feb 7 04:00 Manila. Feb 4 23:00 Manila is 3 Manila days before; Feb 7 23:59 is the day; Feb 8 00:00 is 1 day late.
    const asOf = (iso: string) => ({ ...input, asOf: new Date(iso) });
    const en = (iso: string) => renderInvoiceMessage("reminder:-3", "en", asOf(iso));
    expect(en("2027-02-04T15:00:00.000Z").subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 due in 3 days");
    expect(en("2027-02-05T16:00:00.000Z").subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 due in 1 day");
    expect(en("2027-02-07T15:59:00.000Z").subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 due today");
    expect(en("2027-02-07T16:00:00.000Z").subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 overdue by 1 day");
    const late = renderInvoiceMessage("reminder:7", "en", asOf("2027-02-13T20:00:00.000Z"));
    expect(late.subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 overdue by 7 days");
    expect(late.text).toContain("Your invoice from Kape ni Juan for Gold is overdue by 7 days: it was due on February 7, 2027.");
    expect(late.text).toContain("Pay your invoice: https://pay.example/invoices/inv_123?token=abc");
    expect(late.sms).toBe("Reminder from Kape ni Juan: ₱1,234.50 overdue by 7 days. Pay at https://pay.example/invoices/inv_123?token=abc");

    const fil = (iso: string) => renderInvoiceMessage("reminder:0", "fil", asOf(iso));
    expect(fil("2027-02-04T15:00:00.000Z").subject).toBe("Paalala mula sa Kape ni Juan: ₱1,234.50, dapat bayaran sa loob ng 3 araw");
    expect(fil("2027-02-06T20:00:00.000Z").subject).toBe("Paalala mula sa Kape ni Juan: ₱1,234.50, dapat bayaran ngayong araw");
    const filLate = fil("2027-02-09T20:00:00.000Z");
    expect(filLate.subject).toBe("Paalala mula sa Kape ni Juan: ₱1,234.50, lampas na ng 3 araw sa takdang petsa");
    expect(filLate.text).toContain("Bayaran ang singil: https://pay.example/invoices/inv_123?token=abc");
    expect(filLate.html).toContain('<html lang="fil">');
  });
});

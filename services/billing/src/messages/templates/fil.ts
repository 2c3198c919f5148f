import type { InvoiceFacts, LocaleTemplates } from "./template.js";

const greeting = (facts: InvoiceFacts) => (facts.customerName ? `Magandang araw, ${facts.customerName},` : "Magandang araw,");
const closing = (facts: InvoiceFacts) =>
  facts.supportContact ? `May tanong? Makipag-ugnayan sa ${facts.projectName} sa ${facts.supportContact}.` : undefined;

/** Filipino. SMS texts start with the kind of message, never with "TEST" (Semaphore drops those). */
export const fil: LocaleTemplates = {
  monthNames: ["Enero", "Pebrero", "Marso", "Abril", "Mayo", "Hunyo", "Hulyo", "Agosto", "Setyembre", "Oktubre", "Nobyembre", "Disyembre"],
  steps: {
    invoice: (facts) => ({
      subject: `Singil mula sa ${facts.projectName}: ${facts.amount}, bayaran bago ang ${facts.dueDate}`,
      greeting: greeting(facts),
      paragraphs: [`Pinadalhan ka ng ${facts.projectName} ng singil para sa ${facts.planName}.`],
      facts: [
        ["Halagang babayaran", facts.amount],
        ["Panahon", `${facts.periodStart} hanggang ${facts.periodEnd}`],
        ["Takdang petsa", facts.dueDate],
        ["Singil", facts.invoiceId],
      ],
      action: { label: "Bayaran ang singil", url: facts.hostedUrl },
      closing: closing(facts),
      sms: `Singil mula sa ${facts.projectName}: ${facts.amount}, bayaran bago ang ${facts.dueDate}. Magbayad sa ${facts.hostedUrl}`,
    }),
    receipt: (facts) => ({
      subject: `Resibo mula sa ${facts.projectName}: ${facts.amount} bayad na`,
      greeting: greeting(facts),
      paragraphs: [`Salamat. Natanggap ng ${facts.projectName} ang bayad mo para sa ${facts.planName}.`],
      facts: [
        ["Halagang binayaran", facts.amount],
        ["Panahon", `${facts.periodStart} hanggang ${facts.periodEnd}`],
        ["Binayaran noong", facts.paidAt ?? facts.dueDate],
        ["Singil", facts.invoiceId],
      ],
      closing: closing(facts),
      sms: `Resibo mula sa ${facts.projectName}: ${facts.amount} bayad na para sa singil ${facts.invoiceId}. Salamat.`,
    }),
  },
  reminder: (facts, daysUntilDue) => {
    const when =
      daysUntilDue > 0
        ? `dapat bayaran sa loob ng ${daysUntilDue} araw`
        : daysUntilDue === 0
          ? "dapat bayaran ngayong araw"
          : `lampas na ng ${-daysUntilDue} araw sa takdang petsa`;
    const lead =
      daysUntilDue > 0
        ? `Ang singil mo mula sa ${facts.projectName} para sa ${facts.planName} ay dapat bayaran sa loob ng ${daysUntilDue} araw, sa ${facts.dueDate}.`
        : daysUntilDue === 0
          ? `Ang singil mo mula sa ${facts.projectName} para sa ${facts.planName} ay dapat bayaran ngayong araw, ${facts.dueDate}.`
          : `Ang singil mo mula sa ${facts.projectName} para sa ${facts.planName} ay lampas na ng ${-daysUntilDue} araw: ang takdang petsa ay ${facts.dueDate}.`;
    return {
      subject: `Paalala mula sa ${facts.projectName}: ${facts.amount}, ${when}`,
      greeting: greeting(facts),
      paragraphs: [lead, "Kung nabayaran mo na ito, salamat: huwag nang pansinin ang paalalang ito."],
      facts: [
        ["Halagang babayaran", facts.amount],
        ["Panahon", `${facts.periodStart} hanggang ${facts.periodEnd}`],
        ["Takdang petsa", facts.dueDate],
        ["Singil", facts.invoiceId],
      ],
      action: { label: "Bayaran ang singil", url: facts.hostedUrl },
      closing: closing(facts),
      sms: `Paalala mula sa ${facts.projectName}: ${facts.amount}, ${when}. Magbayad sa ${facts.hostedUrl}`,
    };
  },
};

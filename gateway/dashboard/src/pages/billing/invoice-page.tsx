import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { BackLink } from "./back-link";
import { ExternalUrl } from "./external-url";
import { InvoiceTimeline } from "./invoice-timeline";
import { billingPaths, resourcePath, type Invoice } from "./types";
import { useBillingQuery } from "./use-billing-query";

export function InvoicePage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? "";
  const invoice = useBillingQuery<Invoice>("invoice", resourcePath(billingPaths.invoices, id));
  const subscriptionId = invoice.data?.subscriptionId;
  return (
    <section className="page billing-page">
      <BackLink href={subscriptionId ? `/subscriptions/${subscriptionId}` : "/subscriptions"} label={subscriptionId ? "Subscription" : "Subscriptions"} />
      <h1>Invoice</h1>
      {invoice.isPending ? (
        <Loading what="the invoice" />
      ) : invoice.error ? (
        <ErrorState error={invoice.error} retry={() => void invoice.refetch()} />
      ) : (
        <>
          <Fields
            label="Invoice"
            entries={[
              ["Id", <CopyId value={invoice.data.invoiceId} label="invoice id" />],
              ["Status", <Status value={invoice.data.status} />],
              ["Amount", <Money minor={invoice.data.amount.amountMinor} />],
              ["Period start", <DateTime iso={invoice.data.periodStart} />],
              ["Period end (due)", <DateTime iso={invoice.data.periodEnd} />],
              ["Reminder steps taken", invoice.data.dunningStep],
              ["Next reminder", invoice.data.nextDunningAt ? <DateTime iso={invoice.data.nextDunningAt} /> : undefined],
              [
                "Subscription",
                subscriptionId ? (
                  <span>
                    <Link href={`/subscriptions/${subscriptionId}`}>Open subscription</Link> <CopyId value={subscriptionId} label="subscription id" />
                  </span>
                ) : undefined,
              ],
              ["Payment page", <ExternalUrl href={invoice.data.hostedInvoiceUrl} />],
            ]}
          />
          <InvoiceTimeline invoice={invoice.data} />
        </>
      )}
    </section>
  );
}

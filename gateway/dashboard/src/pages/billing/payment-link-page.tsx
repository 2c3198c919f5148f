import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { BackLink } from "./back-link";
import { ExternalUrl } from "./external-url";
import { MetadataList } from "./metadata-list";
import { billingPaths, resourcePath, type PaymentLink } from "./types";
import { useBillingQuery } from "./use-billing-query";

export function PaymentLinkPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? "";
  const link = useBillingQuery<PaymentLink>("payment-link", resourcePath(billingPaths.paymentLinks, id));
  return (
    <section className="page billing-page">
      <BackLink href="/payment-links" label="Payment links" />
      <h1>Payment link</h1>
      {link.isPending ? (
        <Loading what="the payment link" />
      ) : link.error ? (
        <ErrorState error={link.error} retry={() => void link.refetch()} />
      ) : (
        <Fields
          label="Payment link"
          entries={[
            ["Id", <CopyId value={link.data.paymentLinkId} label="payment link id" />],
            ["Reference", <CopyId value={link.data.referenceId} label="reference" />],
            ["Status", <Status value={link.data.status} />],
            ["Amount", <Money minor={link.data.amount.amountMinor} />],
            ["Description", link.data.description],
            ["Remarks", link.data.remarks],
            ["Link", <ExternalUrl href={link.data.url} />],
            ["Provider reference", link.data.referenceNumber ? <CopyId value={link.data.referenceNumber} label="provider reference" /> : undefined],
            ["Created", <DateTime iso={link.data.createdAt} />],
            ["Updated", <DateTime iso={link.data.updatedAt} />],
            ["Metadata", <MetadataList metadata={link.data.metadata} />],
          ]}
        />
      )}
    </section>
  );
}

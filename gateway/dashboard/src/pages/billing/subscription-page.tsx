import { Link } from "wouter";
import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { DateTime, Status } from "../../components/values";
import { BackLink } from "./back-link";
import { DunningScheduleField } from "./dunning-schedule-field";
import { InvoicesSection } from "./invoices-section";
import { billingPaths, resourcePath, type Subscription } from "./types";
import { useBillingQuery } from "./use-billing-query";

export function SubscriptionPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? "";
  const subscription = useBillingQuery<Subscription>("subscription", resourcePath(billingPaths.subscriptions, id));
  return (
    <section className="page billing-page">
      <BackLink href="/subscriptions" label="Subscriptions" />
      <h1>Subscription</h1>
      {subscription.isPending ? (
        <Loading what="the subscription" />
      ) : subscription.error ? (
        <ErrorState error={subscription.error} retry={() => void subscription.refetch()} />
      ) : (
        <>
          <Fields
            label="Subscription"
            entries={[
              ["Id", <CopyId value={subscription.data.subscriptionId} label="subscription id" />],
              ["Reference", subscription.data.referenceId ? <CopyId value={subscription.data.referenceId} label="reference" /> : undefined],
              [
                "Status",
                <span>
                  <Status value={subscription.data.status} />
                  {subscription.data.status === "unpaid" ? (
                    <span className="muted">
                      {" "}
                      An invoice went unpaid past the last reminder: no new period is billed until no invoice is overdue; its invoices stay payable.
                    </span>
                  ) : null}
                </span>,
              ],
              [
                "Cancellation",
                subscription.data.cancelAtPeriodEnd ? (
                  <span>
                    Scheduled: ends at <DateTime iso={subscription.data.currentPeriodEnd} />
                  </span>
                ) : undefined,
              ],
              ["Trial ends", subscription.data.trialEnd ? <DateTime iso={subscription.data.trialEnd} /> : undefined],
              [
                "Plan change",
                subscription.data.pendingPlanChange ? (
                  <span>
                    Scheduled: <CopyId value={subscription.data.pendingPlanChange.priceId} label="new plan id" /> from{" "}
                    <DateTime iso={subscription.data.pendingPlanChange.effectiveAt} />
                  </span>
                ) : undefined,
              ],
              ["Customer", <CopyId value={subscription.data.customerId} label="customer id" />],
              [
                "Plan",
                subscription.data.priceId ? (
                  <span>
                    <Link href={`/plans/${subscription.data.priceId}`}>Open plan</Link> <CopyId value={subscription.data.priceId} label="plan id" />
                  </span>
                ) : undefined,
              ],
              ["Current period start", <DateTime iso={subscription.data.currentPeriodStart} />],
              ["Current period end", <DateTime iso={subscription.data.currentPeriodEnd} />],
              ["Dunning schedule", <DunningScheduleField />],
            ]}
          />
          <InvoicesSection subscriptionId={subscription.data.subscriptionId} />
        </>
      )}
    </section>
  );
}

import { CopyId } from "../../components/copy-id";
import { Fields } from "../../components/fields";
import { ErrorState, Loading } from "../../components/states";
import { Money } from "../../components/values";
import { BackLink } from "./back-link";
import { MetadataList } from "./metadata-list";
import { planPeriod, planPrice } from "./plan-price";
import { billingPaths, resourcePath, type Plan } from "./types";
import { useBillingQuery } from "./use-billing-query";

export function PlanPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? "";
  const plan = useBillingQuery<Plan>("plan", resourcePath(billingPaths.plans, id));
  return (
    <section className="page billing-page">
      <BackLink href="/plans" label="Plans" />
      <h1>{plan.data?.name ?? "Plan"}</h1>
      {plan.isPending ? (
        <Loading what="the plan" />
      ) : plan.error ? (
        <ErrorState error={plan.error} retry={() => void plan.refetch()} />
      ) : (
        <>
          <p>{planPrice(plan.data)}</p>
          <Fields
            label="Plan"
            entries={[
              ["Id", <CopyId value={plan.data.planId} label="plan id" />],
              ["Name", plan.data.name],
              ["Amount", <Money minor={plan.data.amount} />],
              ["Period", planPeriod(plan.data)],
              ["Periods billed", plan.data.cycleCount ?? "Until cancelled"],
              ["Description", plan.data.description],
              ["Metadata", <MetadataList metadata={plan.data.metadata} />],
            ]}
          />
          <p className="muted">
            Subscribe a customer with <code>POST {billingPaths.subscriptions}</code> and this plan's id as <code>priceId</code>.
          </p>
        </>
      )}
    </section>
  );
}

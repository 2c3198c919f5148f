import type { ColumnDef } from "@tanstack/react-table";
import { useLocation } from "wouter";
import { CopyId } from "../../components/copy-id";
import { DataTable } from "../../components/data-table";
import { LoadMore } from "../../components/load-more";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { Money } from "../../components/values";
import { planPeriod } from "./plan-price";
import { useShownRows } from "./shown-rows";
import { billingPaths, type Plan } from "./types";
import { useBillingQuery } from "./use-billing-query";

const columns: ColumnDef<Plan, unknown>[] = [
  { header: "Name", cell: ({ row }) => row.original.name },
  { header: "Amount", cell: ({ row }) => <Money minor={row.original.amount} /> },
  { header: "Period", cell: ({ row }) => planPeriod(row.original) },
  { header: "Periods billed", cell: ({ row }) => row.original.cycleCount ?? "Until cancelled" },
  { header: "Id", cell: ({ row }) => <CopyId value={row.original.planId} label="plan id" /> },
];

/** The project's plans (recurring prices), newest first. */
export function PlansPage() {
  const [, navigate] = useLocation();
  const plans = useBillingQuery<Plan[]>("plans", billingPaths.plans);
  const shown = useShownRows(plans.data);
  return (
    <section className="page billing-page">
      <h1>Plans</h1>
      <p className="muted">Recurring prices; a subscription bills its plan's amount each period.</p>
      {plans.isPending ? (
        <Loading what="plans" />
      ) : plans.error ? (
        <ErrorState error={plans.error} retry={() => void plans.refetch()} />
      ) : plans.data.length === 0 ? (
        <EmptyState title="No plans in this project and environment">
          Create one with <code>POST {billingPaths.plans}</code> (a <code>name</code>, an <code>amount</code> in centavos and an{" "}
          <code>interval</code>), then subscribe customers to it.
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Plans"
            columns={columns}
            rows={shown.rows}
            rowId={(plan) => plan.planId}
            onOpen={(plan) => navigate(`/plans/${plan.planId}`)}
          />
          <LoadMore hasMore={shown.hasMore} loading={false} onLoad={shown.loadMore} what="plans" />
        </>
      )}
    </section>
  );
}

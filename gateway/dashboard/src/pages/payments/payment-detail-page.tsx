import { useMemo, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, Redirect } from "wouter";
import { CopyId } from "../../components/copy-id";
import { providerLabel } from "../../format";
import { EmptyState, ErrorState, Loading } from "../../components/states";
import { DateTime, Money, Status } from "../../components/values";
import { useWorkspace, useProjectRequest } from "../../workspace";
import { ConsumerEvents } from "./consumer-events";
import { fetchHistory } from "./payment-history";
import { fetchResource, refundable, type PaymentResource } from "./payment-resource";
import type { PaymentIntentMethod } from "../../api/schemas";
import type { PaymentRecord } from "./records";
import { RefundForm, type CreatedRefund } from "./refund-form";
import { RefundsList } from "./refunds-list";
import { kindOf, type ResourceKind } from "./resource-kinds";
import { Timeline } from "./timeline";

/** How often a payment with a pending refund is read again. */
const pendingRefundPollMs = 3_000;

/** A refund this page just created, as a feed record until the feed (moments behind) has it. */
const asRecord = (refund: CreatedRefund & { at: string }, resource: PaymentResource): PaymentRecord => ({
  type: "refund",
  id: refund.refundId,
  projectId: "",
  environment: "test",
  referenceId: resource.referenceId ?? null,
  relatedResourceId: refund.paymentId,
  amountMinor: `-${refund.amount.amountMinor}`,
  currency: refund.amount.currency,
  status: refund.status,
  provider: null,
  providerAccountId: null,
  // Not known until the feed has the refund.
  paymentMethod: null,
  customerId: null,
  feeMinor: null,
  netMinor: null,
  metadata: {},
  createdAt: refund.at,
});

function Fields({ resource, kind, createdAt }: { resource: PaymentResource; kind: ResourceKind; createdAt?: string }) {
  return (
    <dl className="fields">
      <dt>{kind.label} id</dt>
      <dd>
        <CopyId value={resource.id} />
      </dd>
      {resource.referenceId ? (
        <>
          <dt>Reference</dt>
          <dd>
            <CopyId value={resource.referenceId} label="reference" />
          </dd>
        </>
      ) : null}
      <dt>Status</dt>
      <dd>
        <Status value={resource.status} />
      </dd>
      <dt>Amount</dt>
      <dd>
        <Money minor={resource.kind === "refund" ? -resource.amount.amountMinor : resource.amount.amountMinor} />
      </dd>
      {createdAt ? (
        <>
          <dt>Created</dt>
          <dd>
            <DateTime iso={createdAt} />
          </dd>
        </>
      ) : null}
      {resource.paymentId ? (
        <>
          <dt>Payment</dt>
          <dd>
            <CopyId value={resource.paymentId} label="payment id" /> <Link href={`/payments/${resource.paymentId}`}>Open</Link>
          </dd>
        </>
      ) : null}
      {resource.reason ? (
        <>
          <dt>Reason</dt>
          <dd>{resource.reason}</dd>
        </>
      ) : null}
      {resource.provider ? (
        <>
          <dt>Provider</dt>
          <dd id="payment-provider">
            {providerLabel(resource.provider)}
            {resource.providerAccountId ? (
              <>
                {" "}
                <CopyId value={resource.providerAccountId} label="provider account id" />
              </>
            ) : null}
          </dd>
        </>
      ) : null}
      {resource.paymentMethod ? (
        <>
          <dt>Payment method</dt>
          <dd id="payment-method">{methodLabel(resource.paymentMethod)}</dd>
        </>
      ) : null}
      {resource.redirectUrl ? (
        <>
          <dt>Payer's page</dt>
          <dd>
            <code id="redirect-url">{resource.redirectUrl}</code>
          </dd>
        </>
      ) : null}
      {resource.checkoutUrl ? (
        <>
          <dt>Checkout page</dt>
          <dd>
            <code>{resource.checkoutUrl}</code>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** `gcash`, or `online_banking (bdo)` for a bank. */
function methodLabel(method: PaymentIntentMethod): string {
  return method.bankCode ? `${method.type} (${method.bankCode})` : method.type;
}

function Detail({ id, kind }: { id: string; kind: ResourceKind }) {
  const { projectId, environment } = useWorkspace();
  const request = useProjectRequest();
  const queryClient = useQueryClient();
  const base = useMemo(() => ["payment", projectId, environment, id], [projectId, environment, id]);
  const [created, setCreated] = useState<(CreatedRefund & { at: string })[]>([]);

  const resource = useQuery({ queryKey: [...base, "resource"], queryFn: () => fetchResource(request, kind, id) });
  const history = useQuery({
    queryKey: [...base, "history", resource.data],
    queryFn: () => (resource.data ? fetchHistory(request, resource.data) : Promise.reject(new Error("not loaded"))),
    enabled: resource.isSuccess,
    // The feed is projected from events, a moment behind: look again until it has the new refunds,
    // then every few seconds while a refund waits for the provider, so its outcome shows by itself
    // (never while the tab is hidden: TanStack Query pauses intervals in the background).
    refetchInterval: (query) => {
      const known = new Set(query.state.data?.refunds.map((refund) => refund.id));
      if (created.some((refund) => !known.has(refund.refundId))) return 700;
      return query.state.data?.refunds.some((refund) => refund.status === "pending") ? pendingRefundPollMs : false;
    },
  });

  if (resource.isPending) return <Loading what={`${kind.label.toLowerCase()} ${id}`} />;
  if (resource.isError) return <ErrorState error={resource.error} retry={() => void resource.refetch()} />;
  const payment = resource.data;
  const refunds = [...(history.data?.refunds ?? [])];
  for (const refund of created) if (!refunds.some((known) => known.id === refund.refundId)) refunds.unshift(asRecord(refund, payment));
  const refundedMinor = refunds.filter((refund) => refund.status !== "failed").reduce((sum, refund) => sum - Number(refund.amountMinor ?? 0), 0);

  return (
    <>
      <section className="panel" aria-label="Details">
        <Fields resource={payment} kind={kind} createdAt={history.data?.record?.createdAt} />
      </section>

      <h2>Timeline</h2>
      {history.isPending ? <Loading what="the timeline" /> : null}
      {history.isError ? <ErrorState error={history.error} retry={() => void history.refetch()} /> : null}
      {history.data ? <Timeline label={kind.label} history={history.data} refunds={refunds} /> : null}

      {payment.kind !== "refund" ? (
        <>
          <h2>Refunds</h2>
          {history.data ? <RefundsList refunds={refunds} /> : null}
          {refundable(payment) ? (
            <>
              <p className="muted">
                Paid <Money minor={payment.amount.amountMinor} />; refunded (pending or succeeded) <Money minor={refundedMinor} />.
              </p>
              <RefundForm
                request={request}
                paymentId={payment.id}
                onCreated={(refund) => {
                  setCreated((list) => [...list, { ...refund, at: new Date().toISOString() }]);
                  void queryClient.invalidateQueries({ queryKey: base });
                }}
              />
            </>
          ) : (
            <p className="muted">Only a paid checkout or a succeeded payment intent can be refunded.</p>
          )}
        </>
      ) : null}

      <h2>Events sent to consumers</h2>
      {history.data ? <ConsumerEvents request={request} queryKey={base} events={history.data.events} /> : null}
    </>
  );
}

/** One checkout, payment intent or refund: fields, timeline, refunds (and refunding), events and deliveries. */
export function PaymentDetailPage({ params }: { params: Record<string, string | undefined> }) {
  const id = params.id ?? "";
  const kind = kindOf(id);
  return (
    <>
      <p>
        <Link href="/payments">← Payments</Link>
      </p>
      <h1>{kind ? kind.label : "Payment"}</h1>
      {!kind ? (
        <EmptyState title={`"${id}" is not a payment id.`}>
          Ids start with chk_ (checkouts), pi_ (payment intents) or ref_ (refunds). Search by reference on the <Link href="/payments">Payments</Link> page.
        </EmptyState>
      ) : kind.elsewhere ? (
        <Redirect to={kind.elsewhere(id)} replace />
      ) : (
        <Detail key={id} id={id} kind={kind} />
      )}
    </>
  );
}

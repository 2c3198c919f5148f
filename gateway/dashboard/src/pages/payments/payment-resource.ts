import type { ProjectRequest } from "./project-request";
import type { ResourceKind } from "./resource-kinds";
import type { Money, PaymentIntentMethod } from "../../api/schemas";

/** A checkout, payment intent or refund as its GET answers it, in one shape. */
export interface PaymentResource {
  id: string;
  kind: "checkout" | "payment_intent" | "refund";
  status: string;
  amount: Money;
  referenceId?: string;
  /** A refund's payment. */
  paymentId?: string;
  reason?: string;
  checkoutUrl?: string;
  /** An intent paid by redirect: its method, and the payer's page while the intent requires their action. */
  paymentMethod?: PaymentIntentMethod;
  redirectUrl?: string;
  /** Checkouts and intents: the provider that took it, and the project's account it was made at (routing chose it). */
  provider?: string;
  providerAccountId?: string;
}

interface Answer {
  checkoutId?: string;
  paymentIntentId?: string;
  refundId?: string;
  referenceId?: string;
  paymentId?: string;
  status: string;
  amount: Money;
  reason?: string;
  checkoutUrl?: string;
  paymentMethod?: PaymentIntentMethod;
  nextAction?: { url: string };
  provider?: string;
  providerAccountId?: string;
}

export async function fetchResource(request: ProjectRequest, kind: ResourceKind, id: string): Promise<PaymentResource> {
  if (!kind.apiPath) throw new Error(`${kind.label}s are not shown here`);
  const answer = await request<Answer>(kind.apiPath(id));
  const base = {
    status: answer.status,
    amount: answer.amount,
    referenceId: answer.referenceId,
    ...(answer.provider ? { provider: answer.provider } : {}),
    ...(answer.providerAccountId ? { providerAccountId: answer.providerAccountId } : {}),
  };
  if (answer.refundId) return { ...base, id: answer.refundId, kind: "refund", paymentId: answer.paymentId, reason: answer.reason };
  if (answer.paymentIntentId) {
    return {
      ...base,
      id: answer.paymentIntentId,
      kind: "payment_intent",
      ...(answer.paymentMethod ? { paymentMethod: answer.paymentMethod } : {}),
      ...(answer.nextAction ? { redirectUrl: answer.nextAction.url } : {}),
    };
  }
  return { ...base, id: answer.checkoutId ?? id, kind: "checkout", checkoutUrl: answer.checkoutUrl };
}

/** Whether the payment can be refunded now: a paid checkout or a succeeded intent. */
export function refundable(resource: PaymentResource): boolean {
  return (resource.kind === "checkout" && resource.status === "paid") || (resource.kind === "payment_intent" && resource.status === "succeeded");
}

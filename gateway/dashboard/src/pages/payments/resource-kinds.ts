/** What an id's prefix says it is, and where the dashboard shows it. */
export interface ResourceKind {
  label: string;
  /** The project API path reading it, for the payments area's own kinds. */
  apiPath?: (id: string) => string;
  /** Its page in another area (billing), when this one does not show it. */
  elsewhere?: (id: string) => string;
}

const kinds: Record<string, ResourceKind> = {
  chk: { label: "Checkout", apiPath: (id) => `/api/v1/payments/checkouts/${encodeURIComponent(id)}` },
  pi: { label: "Payment intent", apiPath: (id) => `/api/v1/payments/intents/${encodeURIComponent(id)}` },
  ref: { label: "Refund", apiPath: (id) => `/api/v1/payments/refunds/${encodeURIComponent(id)}` },
  sub: { label: "Subscription", elsewhere: (id) => `/subscriptions/${encodeURIComponent(id)}` },
  inv: { label: "Invoice", elsewhere: (id) => `/invoices/${encodeURIComponent(id)}` },
  link: { label: "Payment link", elsewhere: (id) => `/payment-links/${encodeURIComponent(id)}` },
};

const idPattern = /^([a-z]+)_[A-Za-z0-9_]+$/;

/** The kind of a resource id ("chk_…" → checkout), or undefined for text that is not one. */
export function kindOf(id: string): ResourceKind | undefined {
  const match = idPattern.exec(id);
  return match ? kinds[match[1]] : undefined;
}

/** The dashboard page of a resource id: its detail here, or its page in the billing area. */
export function pageOf(id: string): string {
  return kindOf(id)?.elsewhere?.(id) ?? `/payments/${encodeURIComponent(id)}`;
}

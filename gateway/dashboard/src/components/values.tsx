import { formatDateTime, formatPesos, humanize } from "../format";

/** Centavos as pesos with centavos; negative amounts (refunds) marked. */
export function Money({ minor }: { minor: number | string | null | undefined }) {
  const text = formatPesos(minor);
  return <span className={text.startsWith("−") ? "money negative" : "money"}>{text}</span>;
}

/** A time in the viewer's zone with its offset; the ISO value kept for machines. */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

const tone: Record<string, string> = {
  paid: "good",
  succeeded: "good",
  active: "good",
  enabled: "good",
  delivered: "good",
  open: "neutral",
  pending: "neutral",
  trialing: "neutral",
  processing: "neutral",
  awaiting_payment_method: "neutral",
  awaiting_next_action: "neutral",
  draft: "neutral",
  failed: "bad",
  expired: "bad",
  cancelled: "bad",
  canceled: "bad",
  disabled: "bad",
  paused: "bad",
  past_due: "bad",
  unpaid: "bad",
  uncollectible: "bad",
};

/** A status as the API names it; one the dashboard does not know yet shows as its text, in a neutral tone. */
export function Status({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={`status status-${tone[value] ?? "neutral"}`}>{humanize(value)}</span>;
}

import { useRef, useState, type FormEvent } from "react";
import { ApiError, newIdempotencyKey } from "../../api/client";
import { ErrorState } from "../../components/states";
import { formatPesos, parsePesos } from "../../format";
import type { Refund as CreatedRefund } from "../../api/schemas";
import type { ProjectRequest } from "./project-request";

export type { CreatedRefund };

/** Failures after which the same submission may be sent again with the same key. */
function retryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.status === 0 || error.status === 429 || error.status >= 500) return true;
  return ["IDEMPOTENCY_KEY_IN_PROGRESS", "PAYMENT_OUTCOME_UNKNOWN", "CONCURRENT_MODIFICATION"].includes(error.code);
}

/**
 * Refunds part or all of a paid payment. One Idempotency-Key per submission: sending the same
 * amount and reason again after a failure whose outcome is open (network, 5xx, in progress)
 * reuses it, so a retry can never refund twice; a success or a definite refusal ends it.
 */
export function RefundForm({ request, paymentId, onCreated }: { request: ProjectRequest; paymentId: string; onCreated: (refund: CreatedRefund) => void }) {
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<unknown>();
  const [done, setDone] = useState<CreatedRefund>();
  const [busy, setBusy] = useState(false);
  const attempt = useRef<{ key: string; body: string } | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(undefined);
    const parsed = parsePesos(amount);
    if ("error" in parsed) {
      setProblem(new ApiError(400, "VALIDATION_FAILED", parsed.error, ["amount: " + parsed.error]));
      return;
    }
    const body = { paymentId, amount: { amountMinor: parsed.minor, currency: "PHP" }, ...(reason.trim() ? { reason: reason.trim() } : {}) };
    const text = JSON.stringify(body);
    if (attempt.current?.body !== text) attempt.current = { key: newIdempotencyKey(), body: text };
    setProblem(undefined);
    setBusy(true);
    try {
      const refund = await request<CreatedRefund>("/api/v1/payments/refunds", { method: "POST", body, idempotencyKey: attempt.current.key });
      attempt.current = undefined;
      setAmount("");
      setReason("");
      setDone(refund);
      onCreated(refund);
    } catch (error) {
      if (!retryable(error)) attempt.current = undefined;
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="refund-form" onSubmit={(event) => void submit(event)} aria-label="Refund">
      <label className="field">
        Amount to refund (₱)
        <input inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} placeholder="150.00" required />
      </label>
      <label className="field">
        Reason (optional)
        <textarea value={reason} maxLength={500} rows={2} onChange={(event) => setReason(event.target.value)} />
      </label>
      <div>
        <button type="submit" className="danger" disabled={busy}>
          {busy ? "Refunding…" : "Refund"}
        </button>
      </div>
      {problem ? <ErrorState error={problem} /> : null}
      {done ? (
        <p className="success" role="status">
          Refund {done.refundId} of {formatPesos(done.amount.amountMinor)} created ({done.status}).
        </p>
      ) : null}
    </form>
  );
}

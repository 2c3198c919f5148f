/**
 * The public PaymentIntent status has no QR Ph states: a ready, unpaid code reads
 * `requires_action` (the payer has yet to act) and an expired one `cancelled` (it can no longer
 * be paid), as the OpenAPI document describes. The gateway's intent responses and the records
 * feed both show this, so a client reads the same status everywhere.
 */
const publicIntentStatuses: Readonly<Record<string, string>> = { awaiting_next_action: "requires_action", expired: "cancelled" };

export function publicPaymentIntentStatus(status: string): string {
  return publicIntentStatuses[status] ?? status;
}

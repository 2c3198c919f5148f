import { newId } from "../ids.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";

/**
 * A payment `py-…` of a request [O fields]: its status, a capture when it succeeded, and
 * payment_details with a made-up payer, as test mode has no real one.
 */
export function makePayment(
  sim: Simulation,
  request: Stored,
  outcome: { status: "SUCCEEDED" } | { status: "FAILED"; failureCode: string },
): Stored {
  const id = newId("py");
  const r = request.body;
  const succeeded = outcome.status === "SUCCEEDED";
  return sim.state.put("payment", request.account, id, {
    payment_id: id,
    business_id: request.account.businessId,
    payment_request_id: request.id,
    reference_id: r["reference_id"],
    type: "PAY",
    country: r["country"],
    currency: r["currency"],
    request_amount: r["request_amount"],
    capture_method: r["capture_method"],
    channel_code: r["channel_code"],
    channel_properties: r["channel_properties"],
    status: outcome.status,
    failure_code: succeeded ? null : outcome.failureCode,
    captures: succeeded
      ? [{ capture_id: newId("cap"), capture_amount: r["request_amount"], capture_timestamp: new Date().toISOString() }]
      : [],
    payment_details: succeeded ? { receipt_id: id.slice(3, 15).toUpperCase(), payer_name: "Juan Dela Cruz", issuer_name: r["channel_code"] } : null,
    metadata: r["metadata"],
  });
}

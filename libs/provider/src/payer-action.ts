import { SimulatedOutcome } from "@bayad/proto";
import { AppError } from "@bayad/kit";
import type { PayerAction } from "./port.js";

/**
 * What a hosted page or test helper asks the payer to do, from the rpc's outcome. Only pay and
 * fail are a payer's doing (EXPIRE is the checkout clock's), so anything else is bad input.
 */
export function payerActionOf(outcome: SimulatedOutcome): PayerAction {
  if (outcome === SimulatedOutcome.SUCCEED) return "pay";
  if (outcome === SimulatedOutcome.FAIL) return "fail";
  throw new AppError("VALIDATION_FAILED", "Unknown outcome.", { details: ["outcome: must be succeed or fail"] });
}

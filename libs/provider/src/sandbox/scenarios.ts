import type { Money } from "@bayad/kit";

/**
 * Scenarios a consumer can trigger on purpose in test mode to exercise its own error handling,
 * chosen by a magic amount (like test card numbers) or, on checkouts, by the metadata key
 * `bayad_sandbox_scenario`.
 *
 * - decline (₱10.02 = 1002 centavos): the payer's payment is declined (checkout → failed when
 *   paid; payment intent → failed on confirm).
 * - delay (₱14.08 = 1408): the provider answers checkout creation late: createCheckout answers
 *   202 with a PendingResource and the checkout becomes pending by itself when the answer comes.
 * - silence (₱15.04 = 1504): the provider never answers checkout creation: 409
 *   PAYMENT_OUTCOME_UNKNOWN until reconciliation learns from the provider that the session exists.
 */
export type SandboxScenario = "normal" | "decline" | "delay" | "silence";

export const scenarioAmounts: Record<Exclude<SandboxScenario, "normal">, number> = {
  decline: 1002,
  delay: 1408,
  silence: 1504,
};

export const scenarioMetadataKey = "bayad_sandbox_scenario";

export function scenarioOf(amount: Money, metadata: Record<string, string> = {}): SandboxScenario {
  const named = metadata[scenarioMetadataKey];
  if (named === "decline" || named === "delay" || named === "silence") return named;
  for (const [scenario, amountMinor] of Object.entries(scenarioAmounts)) {
    if (amount.amountMinor === amountMinor) return scenario as SandboxScenario;
  }
  return "normal";
}

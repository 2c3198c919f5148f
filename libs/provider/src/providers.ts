import { AppError, type Environment } from "@bayad/kit";
import { ProviderNoAnswerError, type PaymentProvider } from "./port.js";

/** The provider of each environment: the sandbox serves test mode; live mode needs a real adapter. */
export interface PaymentProviders {
  test: PaymentProvider;
  live?: PaymentProvider;
}

/** The provider for `environment`, or 409 PROVIDER_NOT_CONFIGURED before anything is written. */
export function providerOf(providers: PaymentProviders, environment: Environment): PaymentProvider {
  const provider = providers[environment];
  if (!provider) throw new AppError("PROVIDER_NOT_CONFIGURED", `No payment provider is configured for ${environment} mode.`);
  return provider;
}

/**
 * Runs a provider call. No answer at all means its outcome is unknown: 409
 * PAYMENT_OUTCOME_UNKNOWN, and reconciliation (or a retry with the same key) settles it.
 */
export async function askProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderNoAnswerError) {
      throw new AppError("PAYMENT_OUTCOME_UNKNOWN", "The payment provider has not answered; retry with the same Idempotency-Key.");
    }
    throw error;
  }
}

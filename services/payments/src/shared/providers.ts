import { AppError, type Environment } from "@bayad/kit";
import type { PaymentProvider } from "@bayad/provider";

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

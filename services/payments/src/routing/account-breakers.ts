import { AppError } from "@bayad/kit";
import { ProviderNoAnswerError } from "@bayad/provider";
import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from "cockatiel";

export interface AccountBreakersOptions {
  /** Failures in a row (nothing made, or no answer) that open an account's circuit. */
  threshold: number;
  /** How long an open circuit skips its account before one call probes it (PAYMENTS_PROVIDER_BREAKER_HALF_OPEN_MS). */
  halfOpenAfterMs: number;
}

/** The provider did nothing (PROVIDER_UNAVAILABLE: unreachable, 503, rate-limited, key refused). */
export const madeNothing = (error: unknown): boolean => error instanceof AppError && error.code === "PROVIDER_UNAVAILABLE";

/** What counts against an account: the provider made nothing, or gave no answer. A refusal is an answer. */
const countsAgainst = (error: Error): boolean => madeNothing(error) || error instanceof ProviderNoAnswerError;

/**
 * The account's circuit is open: nothing was asked of it (PROVIDER_UNAVAILABLE, so a create goes
 * on to the next account).
 */
export class AccountCircuitOpenError extends AppError {
  constructor(providerAccountId: string) {
    super("PROVIDER_UNAVAILABLE", `Provider account ${providerAccountId} keeps failing: it is skipped for now.`, {
      details: [`providerAccountId: ${providerAccountId} is skipped while its circuit is open`],
    });
  }
}

/**
 * One cockatiel circuit breaker per provider account, in this process: `threshold` failures in a
 * row open it; while open, calls to the account are refused at once (AccountCircuitOpenError);
 * after `halfOpenAfterMs` the next call probes it, and a success closes it again.
 */
export function createAccountBreakers(options: AccountBreakersOptions) {
  const breakers = new Map<string, CircuitBreakerPolicy>();
  const breakerOf = (providerAccountId: string) => {
    let breaker = breakers.get(providerAccountId);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen(countsAgainst), {
        halfOpenAfter: options.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.threshold),
      });
      breakers.set(providerAccountId, breaker);
    }
    return breaker;
  };
  return {
    async call<T>(providerAccountId: string, call: () => Promise<T>): Promise<T> {
      try {
        return await breakerOf(providerAccountId).execute(call);
      } catch (error) {
        if (error instanceof BrokenCircuitError) throw new AccountCircuitOpenError(providerAccountId);
        throw error;
      }
    },
    isOpen: (providerAccountId: string) => breakers.get(providerAccountId)?.state === CircuitState.Open,
  };
}

export type AccountBreakers = ReturnType<typeof createAccountBreakers>;

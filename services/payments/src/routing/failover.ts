import { AppError, type Environment } from "@bayad/kit";
import type { KeyedCaller } from "@bayad/idempotency";
import { askProvider, chooseProvider, ProviderNoAnswerError, type PaymentProvider, type PaymentProviders } from "@bayad/provider";
import { AccountCircuitOpenError, madeNothing } from "./account-breakers.js";
import type { CreatePins } from "./create-pins.js";
import type { PaymentRouting } from "./payment-routing.js";
import type { PaymentToRoute, RouteCandidate } from "./route-payment.js";

/** A create a provider account made nothing of, so the payment went on to the next account. */
export interface ProviderAttempt {
  providerAccountId: string;
  /** The catalogue's code of what the account answered (PROVIDER_UNAVAILABLE), or CIRCUIT_OPEN when it was skipped. */
  error: string;
  at: Date;
}

/** Where a new payment may be made, in order, and how each is asked. */
export interface PaymentRoute {
  /** One candidate (the environment's default, without an account id) when the project has no account. */
  candidates: (RouteCandidate | { providerAccountId?: undefined; providerName: string; provider: PaymentProvider })[];
  ask<T>(candidate: PaymentRoute["candidates"][number], call: () => Promise<T>): Promise<T>;
  failedOver(from: PaymentRoute["candidates"][number], to: PaymentRoute["candidates"][number]): void;
}

export type RouteStop = PaymentRoute["candidates"][number];

/**
 * The route of a new payment: the project's accounts as its routing orders them, or, when it
 * has none in the environment, the environment's default provider alone (the sandbox in test
 * mode; PROVIDER_NOT_CONFIGURED in live mode), whose published amount limits are checked here.
 * Refuses (422/409) before anything is written when no account would take the payment.
 */
export async function routeNewPayment(
  providers: PaymentProviders,
  routing: PaymentRouting | undefined,
  tenant: { projectId: string; environment: Environment },
  payment: PaymentToRoute,
): Promise<PaymentRoute> {
  const candidates = await routing?.candidates(tenant, payment);
  if (routing && candidates) {
    return {
      candidates,
      ask: (candidate, call) => (candidate.providerAccountId === undefined ? call() : routing.ask(candidate, call)),
      failedOver: (from, to) => routing.failedOver(from as RouteCandidate, to as RouteCandidate),
    };
  }
  const { provider, providerAccountId } = await chooseProvider(providers, tenant);
  return {
    candidates: [providerAccountId === undefined ? { providerName: provider.name, provider } : { providerAccountId, providerName: provider.name, provider }],
    ask: (_candidate, call) => call(),
    failedOver: () => undefined,
  };
}

/** Whether a failed create may go on to the next account: the provider made nothing (or was skipped). Never after no answer. */
export const mayFailOver = (error: unknown): boolean => madeNothing(error) && !(error instanceof ProviderNoAnswerError);

export function attemptOf(stop: RouteStop, error: unknown, at: Date): ProviderAttempt {
  const code = error instanceof AccountCircuitOpenError ? "CIRCUIT_OPEN" : error instanceof AppError ? error.code : "INTERNAL";
  return { providerAccountId: stop.providerAccountId ?? "", error: code, at };
}

/**
 * Makes a payment that is created at the provider before its record is written (payment intents)
 * along `route`: each account is pinned to the Idempotency-Key before it is asked (create-pins.ts),
 * and one that made nothing hands over to the next. No answer: the same account is asked once
 * more with the same key (the provider answers what the first call made), then 409
 * PAYMENT_OUTCOME_UNKNOWN; a retry of the key starts at the pinned account, never elsewhere.
 */
export async function createAlongRoute<T>(
  route: PaymentRoute,
  options: {
    pins: CreatePins | undefined;
    caller: KeyedCaller;
    operation: string;
    /** An account an earlier try was pinned to that routing no longer lists first. */
    accountOf: (providerAccountId: string) => Promise<PaymentProvider | undefined>;
    create: (provider: PaymentProvider) => Promise<T>;
    now: () => Date;
  },
): Promise<{ result: T; stop: RouteStop; attempts: ProviderAttempt[] }> {
  const routed = route.candidates[0]?.providerAccountId !== undefined;
  const pins = routed ? options.pins : undefined;
  let stops = route.candidates;
  let attempts: ProviderAttempt[] = [];
  const pinned = await pins?.find(options.caller, options.operation);
  if (pinned) {
    const listed = route.candidates.find((stop) => stop.providerAccountId === pinned.providerAccountId);
    const provider = listed?.provider ?? (await options.accountOf(pinned.providerAccountId));
    if (!provider) throw new AppError("PROVIDER_NOT_CONFIGURED", `The provider account ${pinned.providerAccountId} this request was sent to no longer exists.`);
    stops = [{ providerAccountId: pinned.providerAccountId, providerName: pinned.provider, provider }];
    attempts = pinned.providerAttempts;
  }
  for (let index = 0; ; index++) {
    const stop = stops[index];
    await pins?.pin(options.caller, options.operation, { providerAccountId: stop.providerAccountId!, provider: stop.providerName, providerAttempts: attempts });
    try {
      const result = await route.ask(stop, () => options.create(stop.provider)).catch((error: unknown) => {
        if (!(error instanceof ProviderNoAnswerError)) throw error;
        return askProvider(() => route.ask(stop, () => options.create(stop.provider)));
      });
      return { result, stop, attempts };
    } catch (error) {
      const next = stops[index + 1];
      if (next === undefined || !mayFailOver(error)) throw error;
      attempts = [...attempts, attemptOf(stop, error, options.now())];
      route.failedOver(stop, next);
    }
  }
}

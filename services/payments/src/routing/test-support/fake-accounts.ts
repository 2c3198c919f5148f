import { AppError, type Environment } from "@bayad/kit";
import { createSandboxProvider, ProviderNoAnswerError, type IntentMethodOption, type PaymentProvider } from "@bayad/provider";
import type { ProviderAccountRecord } from "../../provider-accounts/provider-account.js";
import type { RoutableAccount } from "../../providers/account-providers.js";

/** What a fake account's next create does: answer (undefined), make nothing (503), or give no answer. */
export type FakeOutcome = "ok" | "unavailable" | "no_answer" | "refused";

const errorOf = (outcome: FakeOutcome): Error | undefined => {
  if (outcome === "unavailable") return new AppError("PROVIDER_UNAVAILABLE", "the fake provider answered 503: it made nothing");
  if (outcome === "no_answer") return new ProviderNoAnswerError("fake create");
  if (outcome === "refused") return new AppError("PROVIDER_REJECTED", "the fake provider refused");
  return undefined;
};

/**
 * A provider account behind the PaymentProvider port: the sandbox's answers, with its creates
 * scripted (`script`: the outcome of each next create, then "ok"), counted, and its methods and
 * amount limit as given.
 */
export function fakeAccount(
  providerAccountId: string,
  options: { provider?: string; paused?: boolean; intentMethods?: IntentMethodOption[]; maxAmountMinor?: number; createdAt?: Date } = {},
) {
  const sandbox = createSandboxProvider({ secret: "routing-fake-provider-secret-0123456789", delayMs: 0, silenceMs: 0 });
  const script: FakeOutcome[] = [];
  const creates: string[] = [];
  const next = (what: string) => {
    creates.push(what);
    const error = errorOf(script.shift() ?? "ok");
    if (error) throw error;
  };
  const provider: PaymentProvider = {
    ...sandbox,
    name: options.provider ?? "paymongo",
    paymentIntentMethods: options.intentMethods ?? [{ type: "gcash" }],
    async createCheckoutSession(request, context) {
      next(`checkout:${request.checkoutId}`);
      return sandbox.createCheckoutSession(request, context);
    },
    // PayMongo's retrieve replays the create with the same key: scripted as a create.
    async retrieveCheckoutSession(request, context) {
      next(`retrieve:${request.checkoutId}`);
      return sandbox.createCheckoutSession(request, context);
    },
    async createQrPh(request, context) {
      next(`qrph:${request.paymentIntentId}`);
      return sandbox.createQrPh(request, context);
    },
    async createRedirectPaymentIntent(request, context) {
      next(`redirect:${request.paymentIntentId}`);
      return sandbox.createRedirectPaymentIntent(request, context);
    },
    checkAmount({ amount }) {
      if (options.maxAmountMinor !== undefined && amount.amountMinor > options.maxAmountMinor) {
        throw new AppError("AMOUNT_OUT_OF_RANGE", undefined, { details: [`amount.amountMinor: above ${options.maxAmountMinor}`] });
      }
    },
  };
  const account = {
    _id: providerAccountId,
    provider: options.provider ?? "paymongo",
    status: options.paused ? "paused" : "active",
    createdAt: options.createdAt ?? new Date(0),
  } as unknown as ProviderAccountRecord;
  return { providerAccountId, account, provider, script, creates };
}

export type FakeAccount = ReturnType<typeof fakeAccount>;

/** AccountProviders' part routing uses, over fake accounts of one project (every environment alike). */
export function fakeAccountProviders(accounts: FakeAccount[]) {
  return {
    async accountsOf(_projectId: string, _environment: Environment): Promise<RoutableAccount[]> {
      return accounts.map(({ account, provider }) => ({ account, provider }));
    },
    async forProject() {
      const [first] = accounts;
      return first ? { providerAccountId: first.providerAccountId, provider: first.provider } : undefined;
    },
    async forAccount(providerAccountId: string) {
      return accounts.find((fake) => fake.providerAccountId === providerAccountId)?.provider;
    },
  };
}

import { isFinal, isSuccess, resourceIdOf, send, type ApiClient, type Journal, type JournalEntry, type Operation } from "./journal.js";
import type { SeededRandom } from "./seeded-random.js";

/**
 * The writes the crash test keeps in flight: new checkouts, payments of pending checkouts (the
 * pay test helper), refunds of paid ones and OTP codes, each with its own Idempotency-Key, from
 * several concurrent workers, each request journaled before it is sent.
 */

export interface LoadOptions {
  client: ApiClient;
  journal: Journal;
  random: SeededRandom;
  cycle: number;
  /** A service token with otp:generate. */
  otpToken: string;
  /** Distinguishes this run's references and recipients. */
  runId: number;
  workers: number;
}

export interface RunningLoad {
  /** Requests sent whose answer has not arrived. */
  inFlight(): number;
  /** Sends nothing more; resolves once every worker has its last answer (or none). */
  stop(): Promise<void>;
}

/** A checkout the load may still act on, with what it was created for. */
interface CheckoutTarget {
  checkoutId: string;
  amountMinor: number;
}

/**
 * The checkouts there is something left to do with, from what the journal settled: pending ones
 * never paid, and paid ones never refunded. Each is handed out once (one pay, one refund per
 * checkout), so every refund and payment in the feed belongs to exactly one journaled request.
 */
function targetsOf(journal: Journal) {
  const paid = new Set<string>();
  const acted = { pay: new Set<string>(), refund: new Set<string>() };
  const created = new Map<string, CheckoutTarget>();
  for (const entry of journal.entries) {
    if (entry.operation === "payCheckout") acted.pay.add(entry.checkoutId!);
    if (entry.operation === "createRefund") acted.refund.add(entry.checkoutId!);
    if (!isSuccess(entry.settled)) continue;
    if (entry.operation === "createCheckout") {
      const checkoutId = resourceIdOf(entry, entry.settled);
      created.set(checkoutId, { checkoutId, amountMinor: (entry.body as { amount: { amountMinor: number } }).amount.amountMinor });
    }
    if (entry.operation === "payCheckout") paid.add(entry.checkoutId!);
  }
  const unpaid = [...created.values()].filter((target) => !acted.pay.has(target.checkoutId));
  const unrefunded = [...created.values()].filter((target) => paid.has(target.checkoutId) && !acted.refund.has(target.checkoutId));
  return {
    unpaid,
    unrefunded,
    /** Notes a final 2xx of this cycle, so that what it made can be acted on in the same cycle. */
    note(entry: JournalEntry) {
      if (!isSuccess(entry.settled)) return;
      if (entry.operation === "createCheckout") {
        unpaid.push({ checkoutId: resourceIdOf(entry, entry.settled), amountMinor: (entry.body as { amount: { amountMinor: number } }).amount.amountMinor });
      }
      if (entry.operation === "payCheckout") {
        const target = created.get(entry.checkoutId!) ?? { checkoutId: entry.checkoutId!, amountMinor: entry.settled.body.data.amount.amountMinor };
        unrefunded.push(target);
      }
    },
  };
}

/** Takes a random element out of `items`. */
function takeFrom<T>(random: SeededRandom, items: T[]): T | undefined {
  if (items.length === 0) return undefined;
  const index = random.int(0, items.length - 1);
  return items.splice(index, 1)[0];
}

/** Sandbox amounts that pick a scenario (decline, late answer, silence) are all below ₱20. */
const ordinaryAmount = (random: SeededRandom) => random.int(20_00, 5_000_00);

export function startLoad(options: LoadOptions): RunningLoad {
  const { journal, random, cycle, runId } = options;
  const targets = targetsOf(journal);
  let stopped = false;
  let inFlight = 0;

  function nextEntry(): JournalEntry {
    const seq = journal.entries.length + 1;
    const idempotencyKey = `crash-${runId}-${seq}-${random.int(0, 2 ** 30).toString(36)}`;
    const base = { seq, cycle, idempotencyKey };
    const wanted: Operation = random.pick(["createCheckout", "createCheckout", "payCheckout", "payCheckout", "createRefund", "generateOtp"]);
    const refund = wanted === "createRefund" ? takeFrom(random, targets.unrefunded) : undefined;
    if (refund) {
      return {
        ...base,
        operation: "createRefund",
        checkoutId: refund.checkoutId,
        path: "/api/v1/payments/refunds",
        body: { paymentId: refund.checkoutId, amount: { amountMinor: random.int(1, refund.amountMinor), currency: "PHP" }, reason: "crash test" },
      };
    }
    const pay = wanted === "payCheckout" ? takeFrom(random, targets.unpaid) : undefined;
    if (pay) {
      return { ...base, operation: "payCheckout", checkoutId: pay.checkoutId, path: `/api/v1/payments/test-helpers/checkouts/${pay.checkoutId}/pay`, body: undefined };
    }
    if (wanted === "generateOtp") {
      // A recipient of its own: the OTP it gets is the only one in the outbox for it.
      const recipient = `+63917${String((runId % 1_000) * 10_000 + seq).padStart(7, "0")}`;
      return { ...base, operation: "generateOtp", recipient, credential: options.otpToken, path: "/api/v1/shared/otp/generate", body: { recipient, channel: "sms" } };
    }
    const referenceId = `crash-${runId}-${seq}`;
    return {
      ...base,
      operation: "createCheckout",
      referenceId,
      path: "/api/v1/payments/checkouts",
      body: {
        referenceId,
        amount: { amountMinor: ordinaryAmount(random), currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/cancel",
      },
    };
  }

  async function worker(): Promise<void> {
    while (!stopped) {
      const entry = nextEntry();
      journal.entries.push(entry);
      inFlight += 1;
      try {
        entry.first = await send(options.client, entry);
      } catch (error) {
        journal.problems.push(`#${entry.seq} ${entry.operation}: ${(error as Error).message}`);
      } finally {
        inFlight -= 1;
      }
      if (entry.first && isFinal(entry.first)) {
        entry.settled = entry.first;
        targets.note(entry);
      }
    }
  }

  const workers = Array.from({ length: options.workers }, () => worker());
  return {
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

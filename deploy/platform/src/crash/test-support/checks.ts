import { isDeepStrictEqual } from "node:util";
import { describeEntry, expectedCheckoutStatus, isFinal, isSuccess, resourceIdOf, send, type Answer, type ApiClient, type Journal, type JournalEntry } from "./journal.js";
import { checkFeed } from "./feed-check.js";

/**
 * What must hold after the platform was killed and started again, checked over the whole
 * journal (every cycle so far):
 * - a request that got no answer (or an undecided one) exists once or not at all, and sending
 *   it again with its key settles: a 2xx (then exactly one resource) or a final error (then none);
 * - every 2xx is there, unchanged but for what the state machine and this run's own later
 *   requests moved;
 * - every key replays its first final answer;
 * - the records feed converges to one record per checkout and refund, as they now are.
 * Problems are added to the journal, never thrown, so one run reports everything it found.
 */

export interface CheckOptions {
  client: ApiClient;
  journal: Journal;
  /** How long a key may stay undecided after the restart. */
  settleDeadlineMs: number;
  /** How long the records feed may take to converge. */
  feedDeadlineMs: number;
  /** Requests the checks keep in flight at once. */
  concurrency: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** A GET's answer: its status and data, or undefined data on a 404. */
async function read(client: ApiClient, path: string, credential?: string) {
  const response = await client.request("GET", path, credential === undefined ? {} : { credential });
  if (response.status === 404) return undefined;
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

const checkoutByReference = (client: ApiClient, referenceId: string) =>
  read(client, `/api/v1/payments/checkouts/by-reference/${encodeURIComponent(referenceId)}`);

/** The distinct OTPs the development outbox holds for a recipient. */
async function otpIdsSentTo(client: ApiClient, recipient: string): Promise<string[]> {
  const response = await client.admin("GET", `/admin/v1/otp/messages?recipient=${encodeURIComponent(recipient)}`);
  if (response.status !== 200) throw new Error(`the OTP outbox answered ${response.status}`);
  return [...new Set((response.body.data as Array<{ otpId: string }>).map((message) => message.otpId))];
}

/** How many resources the entry's request made, as far as the API shows (checkouts by reference, OTPs by recipient). */
async function madeBy(client: ApiClient, entry: JournalEntry): Promise<string[] | undefined> {
  if (entry.operation === "createCheckout") {
    const found = await checkoutByReference(client, entry.referenceId!);
    return found ? [found.checkoutId] : [];
  }
  if (entry.operation === "generateOtp") return otpIdsSentTo(client, entry.recipient!);
  // Payments change a checkout's status; refunds are counted in the feed (one refund request per checkout).
  return undefined;
}

/** Sends the request again with its key until the answer is final, or the deadline passes. */
async function settle(client: ApiClient, entry: JournalEntry, deadlineMs: number): Promise<Answer | string> {
  const deadline = Date.now() + deadlineMs;
  let last: Answer | undefined;
  for (;;) {
    last = await send(client, entry);
    if (last && isFinal(last)) return last;
    if (Date.now() > deadline) {
      return last ? `still ${last.status} ${last.body?.error?.code ?? ""} after ${deadlineMs} ms` : `no answer for ${deadlineMs} ms`;
    }
    await pause(100);
  }
}

async function settleUndecided(options: CheckOptions, entry: JournalEntry): Promise<void> {
  const { client, journal } = options;
  const before = await madeBy(client, entry);
  if (before && before.length > 1) journal.problems.push(`${describeEntry(entry)}: made ${before.length} resources (${before.join(", ")}) before it was sent again`);
  const outcome = await settle(client, entry, options.settleDeadlineMs);
  if (typeof outcome === "string") {
    journal.problems.push(`${describeEntry(entry)}: its key did not settle: ${outcome}`);
    return;
  }
  entry.settled = outcome;
  const after = await madeBy(client, entry);
  if (!after) return;
  const expected = isSuccess(outcome) ? [resourceIdOf(entry, outcome)] : [];
  if (!isDeepStrictEqual(after, expected)) {
    journal.problems.push(`${describeEntry(entry)}: settled as ${outcome.status} but made [${after.join(", ")}], not [${expected.join(", ")}]`);
  }
}

/**
 * Fields of a checkout that no later change touches. Of checkoutUrl, the path and token: its
 * origin is the gateway's public URL as configured now (PORT=0 draws a new port at every start).
 */
const checkoutIdentity = (checkout: any) => ({
  checkoutId: checkout.checkoutId,
  referenceId: checkout.referenceId,
  amount: checkout.amount,
  checkoutPage: checkout.checkoutUrl && new URL(checkout.checkoutUrl).pathname + new URL(checkout.checkoutUrl).search,
});

/** What a 2xx answered is there: read back by id and compared with what may not have changed. */
async function checkDurable(options: CheckOptions, entry: JournalEntry, answer: Answer): Promise<void> {
  const { client, journal } = options;
  const said = answer.body.data;
  const problem = (text: string) => journal.problems.push(`${describeEntry(entry)}: ${text}`);
  switch (entry.operation) {
    case "createCheckout":
    case "payCheckout": {
      const checkoutId = resourceIdOf(entry, answer);
      const now = await read(client, `/api/v1/payments/checkouts/${checkoutId}`);
      if (!now) return void problem(`answered ${answer.status} but ${checkoutId} is gone`);
      if (said.checkoutId && !isDeepStrictEqual(checkoutIdentity(now), checkoutIdentity(said))) {
        problem(`${checkoutId} changed: answered ${JSON.stringify(checkoutIdentity(said))}, now ${JSON.stringify(checkoutIdentity(now))}`);
      }
      if (said.aggregateVersion !== undefined && now.aggregateVersion < said.aggregateVersion) {
        problem(`${checkoutId} went back from version ${said.aggregateVersion} to ${now.aggregateVersion}`);
      }
      const expected = expectedCheckoutStatus(journal, checkoutId);
      if (now.status !== expected) problem(`${checkoutId} is ${now.status}, expected ${expected}`);
      return;
    }
    case "createRefund": {
      const now = await read(client, `/api/v1/payments/refunds/${said.refundId}`);
      if (!now) return void problem(`answered ${answer.status} but ${said.refundId} is gone`);
      // Nothing in this run moves a refund on (no provider outcome is driven).
      if (!isDeepStrictEqual(now, said)) problem(`${said.refundId} changed: answered ${JSON.stringify(said)}, now ${JSON.stringify(now)}`);
      return;
    }
    case "generateOtp": {
      const now = await read(client, `/api/v1/shared/otp/status/${encodeURIComponent(said.otpId)}`, entry.credential);
      if (!now) return void problem(`answered ${answer.status} but ${said.otpId} is gone`);
      const stable = (otp: any) => ({ otpId: otp.otpId, target: otp.target, channel: otp.channel, expiresAt: otp.expiresAt });
      if (!isDeepStrictEqual(stable(now), stable(said))) problem(`${said.otpId} changed: answered ${JSON.stringify(stable(said))}, now ${JSON.stringify(stable(now))}`);
      const sent = await otpIdsSentTo(client, entry.recipient!);
      if (!isDeepStrictEqual(sent, [said.otpId])) problem(`the outbox holds [${sent.join(", ")}] for its recipient, not [${said.otpId}]`);
      // Nothing verifies it; past its expiry it may read expired.
      const allowed = Date.parse(said.expiresAt) <= Date.now() ? ["pending", "expired"] : ["pending"];
      if (!allowed.includes(now.status)) problem(`${said.otpId} is ${now.status}, expected ${allowed.join(" or ")}`);
      return;
    }
  }
}

/** The key answers its first final answer again, marked replayed (an error's meta is the replay's own). */
async function checkReplay(options: CheckOptions, entry: JournalEntry, settled: Answer): Promise<void> {
  const again = await send(options.client, entry);
  const problem = (text: string) => options.journal.problems.push(`${describeEntry(entry)}: replay ${text}`);
  if (!again) return void problem("got no answer");
  if (again.status !== settled.status) return void problem(`answered ${again.status} ${JSON.stringify(again.body.error ?? "")}, first ${settled.status}`);
  if (!again.replayed) problem("is not marked Idempotent-Replayed: true");
  const same = settled.status < 300 ? isDeepStrictEqual(again.body, settled.body) : isDeepStrictEqual(again.body.error, settled.body.error);
  if (!same) problem(`body differs: first ${JSON.stringify(settled.body)}, now ${JSON.stringify(again.body)}`);
}

/** Guards one check: an unexpected answer (not JSON, off the OpenAPI document) is a problem too. */
function guarded(journal: Journal, entry: JournalEntry, check: () => Promise<void>): Promise<void> {
  return check().catch((error: unknown) => void journal.problems.push(`${describeEntry(entry)}: ${(error as Error).message}`));
}

/**
 * Runs every check; returns how many undecided keys settled now, and how many of them as a
 * replay (the killed process had done the work, or reconciliation finished it).
 */
export async function checkAfterRestart(options: CheckOptions): Promise<{ settledNow: number; doneBeforeTheKill: number }> {
  const { journal, concurrency } = options;
  const undecided = journal.entries.filter((entry) => entry.settled === undefined);
  // Creates first, then payments, then refunds: a refund's checkout is paid (or not) before it is re-sent.
  for (const phase of [["createCheckout", "generateOtp"], ["payCheckout"], ["createRefund"]]) {
    const inPhase = undecided.filter((entry) => phase.includes(entry.operation));
    await inParallel(inPhase, concurrency, (entry) => guarded(journal, entry, () => settleUndecided(options, entry)));
  }
  const settled = journal.entries.filter((entry) => entry.settled !== undefined);
  await inParallel(settled, concurrency, (entry) =>
    guarded(journal, entry, async () => {
      if (isSuccess(entry.settled)) await checkDurable(options, entry, entry.settled);
      await checkReplay(options, entry, entry.settled!);
    }),
  );
  await checkFeed(options);
  const settledNow = undecided.filter((entry) => entry.settled !== undefined);
  return { settledNow: settledNow.length, doneBeforeTheKill: settledNow.filter((entry) => entry.settled!.replayed).length };
}

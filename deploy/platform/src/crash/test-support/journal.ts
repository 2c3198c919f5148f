import type { apiClientFor } from "../../test-support/harness.js";

/** A client of the running platform (the harness's: every answer is checked against the OpenAPI document). */
export type ApiClient = ReturnType<typeof apiClientFor>;

export type Operation = "createCheckout" | "payCheckout" | "createRefund" | "generateOtp";

/** An HTTP answer as the crash test keeps it. */
export interface Answer {
  status: number;
  body: any;
  replayed: boolean;
}

/** One write the crash test sent, and what became of it. */
export interface JournalEntry {
  seq: number;
  /** The run of the platform it was sent to (1 for the first start). */
  cycle: number;
  operation: Operation;
  path: string;
  body: unknown;
  idempotencyKey: string;
  /** The bearer credential when not the test API key (OTP takes a service token). */
  credential?: string;
  /** createCheckout: its reference, unique in the run. */
  referenceId?: string;
  /** payCheckout, createRefund: the checkout acted on. */
  checkoutId?: string;
  /** generateOtp: its recipient, unique in the run. */
  recipient?: string;
  /** The first attempt's answer; undefined when none arrived (the platform was killed). */
  first?: Answer;
  /**
   * The key's outcome: the first answer when it was final, else the first final answer that
   * sending the request again with the same key got after a restart.
   */
  settled?: Answer;
}

export interface Journal {
  entries: JournalEntry[];
  /** What was found wrong, each with enough to find it again (operation, key, ids). */
  problems: string[];
}

export const newJournal = (): Journal => ({ entries: [], problems: [] });

/** Codes that say the key's outcome is not decided yet: a retry with it must eventually settle. */
const undecidedCodes = new Set(["IDEMPOTENCY_KEY_IN_PROGRESS", "PAYMENT_OUTCOME_UNKNOWN", "IDEMPOTENCY_OUTCOME_UNKNOWN"]);

/** A 2xx, or an error that decides the request (a 404, a refusal of the state machine …). */
export function isFinal(answer: Answer): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  if (answer.status >= 500 || answer.status === 429) return false;
  return !undecidedCodes.has(answer.body?.error?.code);
}

export const isSuccess = (answer: Answer | undefined): answer is Answer => answer !== undefined && answer.status >= 200 && answer.status < 300;

/** An entry for the log and for problems: operation, cycle, key and what it names. */
export function describeEntry(entry: JournalEntry): string {
  const subject = entry.referenceId ?? entry.checkoutId ?? entry.recipient ?? "";
  return `#${entry.seq} ${entry.operation} ${subject} (cycle ${entry.cycle}, key ${entry.idempotencyKey})`;
}

/**
 * Sends the entry's request with its key. Undefined when no answer came: the connection was
 * refused or closed before the whole response arrived (fetch's TypeError); an answer that is
 * not JSON or breaks the OpenAPI document throws.
 */
export async function send(client: ApiClient, entry: JournalEntry): Promise<Answer | undefined> {
  try {
    const response = await client.request("POST", entry.path, {
      body: entry.body,
      idempotencyKey: entry.idempotencyKey,
      ...(entry.credential === undefined ? {} : { credential: entry.credential }),
    });
    return { status: response.status, body: response.body, replayed: response.headers.get("Idempotent-Replayed") === "true" };
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** The id of the resource a successful create made or an action acted on. */
export function resourceIdOf(entry: JournalEntry, answer: Answer): string {
  const data = answer.body.data;
  switch (entry.operation) {
    case "createCheckout":
      // 202 (the provider answered late) names the checkout as resourceId.
      return data.checkoutId ?? data.resourceId;
    case "payCheckout":
      return entry.checkoutId!;
    case "createRefund":
      return data.refundId;
    case "generateOtp":
      return data.otpId;
  }
}

/** A checkout's status as this run's requests left it: paid once a payment of it settled 2xx. */
export function expectedCheckoutStatus(journal: Journal, checkoutId: string): string {
  const paid = journal.entries.some((entry) => entry.operation === "payCheckout" && entry.checkoutId === checkoutId && isSuccess(entry.settled));
  return paid ? "paid" : "pending";
}

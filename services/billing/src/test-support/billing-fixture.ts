import { fromBinary } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { EventSchema } from "@bayad/proto";
import { createLogger, type CallerContext, type Environment } from "@bayad/kit";
import { outboxCollection, type OutboxRecord } from "@bayad/events";
import { createSandboxProvider, ProviderNoAnswerError, type PaymentProvider, type ProviderAccounts } from "@bayad/provider";
import { createBillingDeps, type BillingDeps } from "../billing-deps.js";
import type { BillingInterval } from "../clock/billing-periods.js";
import { createPlan } from "../plans/plans.js";
import type { PlanRecord } from "../plans/plan.js";
import { createSubscription } from "../subscriptions/subscriptions.js";
import { subscriptionToProto } from "../subscriptions/subscription.js";
import { invoiceToProto } from "../invoices/invoice.js";
import { createTestStore } from "@bayad/store/testing";

/** Jan 31, 12:00 in Manila: a month-end anchor, so monthly plans exercise the clamping. */
export const T0 = new Date("2027-01-31T04:00:00.000Z");
export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

export const sandbox = () => createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 });

/** A sandbox provider whose hosted-payment call can be made to give no answer (a crash stand-in). */
export function flakyProvider() {
  const inner = sandbox();
  const control = { silent: false };
  const provider: PaymentProvider = {
    ...inner,
    createHostedPayment(request, context) {
      if (control.silent) return Promise.reject(new ProviderNoAnswerError("createHostedPayment"));
      return inner.createHostedPayment(request, context);
    },
  };
  return { provider, control };
}

/** A billing domain on a fresh embedded store, with a clock the test moves. */
export async function billingFixture(options: { provider?: PaymentProvider; accounts?: ProviderAccounts; start?: Date } = {}) {
  const store = createTestStore();
  let current = options.start ?? T0;
  const time = {
    now: () => new Date(current),
    set(to: Date) {
      current = to;
    },
  };
  const deps = createBillingDeps({
    store,
    providers: { test: options.provider ?? sandbox(), ...(options.accounts ? { accounts: options.accounts } : {}) },
    logger: createLogger("test", "silent"),
    now: time.now,
  });
  await store.ensureIndexes();
  return { store, deps, time, outbox: store.collection<OutboxRecord>(outboxCollection) };
}

export type BillingFixture = Awaited<ReturnType<typeof billingFixture>>;

let keys = 0;

export function caller(projectId = "prj_a", environment: Environment = "test"): CallerContext {
  return { projectId, environment, correlationId: "corr" };
}

/** A mutating caller with a fresh Idempotency-Key unless one is given. */
export function mutating(projectId = "prj_a", environment: Environment = "test", idempotencyKey?: string) {
  return { ...caller(projectId, environment), idempotencyKey: idempotencyKey ?? `key-${String(++keys).padStart(16, "0")}` };
}

export function plan(
  deps: BillingDeps,
  options: { interval?: BillingInterval; cycleCount?: number; projectId?: string; metadata?: Record<string, string> } = {},
): Promise<PlanRecord> {
  return createPlan(deps, mutating(options.projectId), {
    name: "Gold",
    amountMinor: 49_900,
    interval: options.interval ?? "weekly",
    cycleCount: options.cycleCount,
    metadata: options.metadata,
  });
}

let references = 0;

export function subscribe(deps: BillingDeps, priceId: string, projectId = "prj_a") {
  return createSubscription(deps, mutating(projectId), {
    customerId: "cus_123",
    referenceId: `member-${++references}`,
    priceId,
  });
}

export interface DecodedEvent {
  type: string;
  subject: string;
  resourceId: string;
  aggregateVersion: number;
  status: number | undefined;
}

/** The outbox, decoded, in the order written. */
export async function events(fixture: BillingFixture, resourceId?: string): Promise<DecodedEvent[]> {
  const records = await fixture.outbox.find(resourceId ? { resourceId } : {}, { sort: { occurredAt: 1 } });
  return records.map((record) => {
    const event = fromBinary(EventSchema, Buffer.from(record.payload, "base64"));
    const snapshot = event.snapshot;
    const status = snapshot.case === "subscription" || snapshot.case === "invoice" ? snapshot.value.status : undefined;
    return { type: event.type, subject: record.subject, resourceId: event.resourceId, aggregateVersion: event.aggregateVersion, status };
  });
}

/** The event types of one resource, in version order. */
export async function eventTypes(fixture: BillingFixture, resourceId: string): Promise<string[]> {
  const found = await events(fixture, resourceId);
  return found.sort((a, b) => a.aggregateVersion - b.aggregateVersion).map((event) => event.type);
}

/**
 * Every stored subscription and invoice has exactly one event per version (1…current), and its
 * latest event carries its current status: no change went unannounced, none twice.
 */
export async function expectOneEventPerChange(fixture: BillingFixture): Promise<void> {
  const all = await events(fixture);
  const resources = [
    ...(await fixture.deps.subscriptions.collection.find({})).map((record) => ({ record, status: subscriptionToProto(record).status })),
    ...(await fixture.deps.invoices.collection.find({})).map((record) => ({ record, status: invoiceToProto(record).status })),
  ];
  expect(resources.length).toBeGreaterThan(0);
  for (const { record, status } of resources) {
    const own = all.filter((event) => event.resourceId === record._id).sort((a, b) => a.aggregateVersion - b.aggregateVersion);
    expect(own.map((event) => event.aggregateVersion)).toEqual(Array.from({ length: record.aggregateVersion }, (_, i) => i + 1));
    expect(own.at(-1)?.status).toBe(status);
    expect(own.every((event) => event.subject.startsWith("bayad.events.billing."))).toBe(true);
  }
}

/** A subscription's invoices' period numbers, oldest first. */
export async function periodNumbers(deps: BillingDeps, subscriptionId: string): Promise<number[]> {
  return (await deps.invoices.listForSubscription(subscriptionId)).map((invoice) => invoice.periodNumber);
}

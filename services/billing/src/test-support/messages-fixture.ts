import { createLogger, type SealingKeys } from "@bayad/kit";
import { outboxCollection, type DeliveredMessage, type OutboxRecord } from "@bayad/events";
import { createDevOutbox, type MessageSender, type OutboundMessage } from "@bayad/messaging";
import type { Store } from "@bayad/store";
import { createBillingDeps } from "../billing-deps.js";
import type { CustomerDirectory, MessageCustomer } from "../messages/customers.js";
import { createInvoiceMessaging } from "../messages/invoice-messages-deps.js";
import { invoiceMessagesHandler } from "../messages/invoice-messages-consumer.js";
import { sandbox } from "./billing-fixture.js";

const SECRET = "billing-outbox-secret-for-tests-000000001";
const config = { email: { kind: "dev" as const }, sms: { kind: "dev" as const }, intervalMs: 1_000, retryInitialMs: 1_000, maxAttempts: 3, sendTimeoutMs: 8_000 };

/** A directory of the payments service's customers, kept in memory (the port billing asks through). */
export function customerDirectory(customers: Record<string, MessageCustomer>): CustomerDirectory & { down: boolean } {
  return {
    down: false,
    async find(_scope, customerId) {
      if (this.down) throw new Error("payments unavailable");
      return customers[customerId] ?? null;
    },
  };
}

/** A sender that records what it takes and fails as scripted. */
export function scriptedSender(script: Array<"ok" | Error> = []): MessageSender & { sent: OutboundMessage[] } {
  const sent: OutboundMessage[] = [];
  return {
    sent,
    async send(message) {
      const step = script.shift() ?? "ok";
      if (step !== "ok") throw step;
      sent.push(message);
    },
  };
}

/** Billing (and its messages) over `store`, at a clock the test moves. */
export function billingOver(store: Store, options: { customers: CustomerDirectory; testSender?: MessageSender; clock: { at: Date }; sealingKeys?: SealingKeys }) {
  const sealingKeys = options.sealingKeys ?? SECRET;
  const now = () => new Date(options.clock.at);
  const live = { email: scriptedSender(), sms: scriptedSender() };
  const deps = createBillingDeps({ store, providers: { test: sandbox() }, logger: createLogger("test", "silent"), now });
  const messaging = createInvoiceMessaging({
    billing: deps,
    config: { ...config, publicUrl: "https://bayad.example" },
    customers: options.customers,
    sealingKeys,
    liveSenders: live,
  });
  if (options.testSender) messaging.deps.senders.test = options.testSender;
  const handle = invoiceMessagesHandler(messaging.deps);
  /** Delivers every event billing has written so far, in order, as the bus would (again, when asked). */
  const deliverEvents = async () => {
    const records = await store.collection<OutboxRecord>(outboxCollection).find({}, { sort: { occurredAt: 1 } });
    for (const record of records) {
      const message: DeliveredMessage = { subject: record.subject, eventId: record._id, payload: Buffer.from(record.payload, "base64"), redelivered: false };
      await handle(message);
    }
  };
  return { deps, messaging, live, deliverEvents, outbox: createDevOutbox(store, { secret: sealingKeys }) };
}

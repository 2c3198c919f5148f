import { Gauge, metricOnce, type Registry } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EventBus } from "./bus.js";
import { outboxCollection, type OutboxRecord } from "./outbox.js";

/**
 * Outbox lag, measured when Prometheus scrapes: how many events wait to be published and how
 * old the oldest is. A growing age means the relay cannot reach the bus.
 */
export function registerOutboxMetrics(registry: Registry, store: Store, service: string): void {
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  // Every record in the outbox is pending: the relay deletes what the bus has acknowledged.
  const oldestPending = async () => (await outbox.find({}, { sort: { occurredAt: 1, aggregateVersion: 1 }, limit: 1 }))[0];
  const pending = metricOnce(registry, "bayad_outbox_pending_events", () =>
    new Gauge({ name: "bayad_outbox_pending_events", help: "Events written but not yet acknowledged by the bus.", labelNames: ["service"], registers: [registry] }),
  );
  const age = metricOnce(registry, "bayad_outbox_oldest_pending_seconds", () =>
    new Gauge({ name: "bayad_outbox_oldest_pending_seconds", help: "Age of the oldest event not yet published (0 when none).", labelNames: ["service"], registers: [registry] }),
  );
  // One collect per service: prom-client calls a gauge's collect once per scrape, so each service
  // refreshes its own labelled values through a shared hook list.
  addCollector(pending, async () => pending.set({ service }, await outbox.count({})));
  addCollector(age, async () => {
    const oldest = await oldestPending();
    age.set({ service }, oldest ? (Date.now() - new Date(oldest.occurredAt).getTime()) / 1000 : 0);
  });
}

/** Consumer lag: messages a durable consumer has yet to acknowledge. */
export function registerConsumerMetrics(registry: Registry, bus: EventBus, durableName: string): void {
  const lag = metricOnce(registry, "bayad_consumer_pending_messages", () =>
    new Gauge({ name: "bayad_consumer_pending_messages", help: "Messages a durable consumer has not acknowledged yet.", labelNames: ["consumer"], registers: [registry] }),
  );
  addCollector(lag, async () => {
    const pending = await bus.pending(durableName);
    if (pending === undefined) lag.remove({ consumer: durableName });
    else lag.set({ consumer: durableName }, pending);
  });
}

const collectors = new WeakMap<Gauge, Array<() => Promise<void>>>();

function addCollector(gauge: Gauge, collect: () => Promise<void>): void {
  let hooks = collectors.get(gauge);
  if (!hooks) {
    const list: Array<() => Promise<void>> = [];
    collectors.set(gauge, list);
    hooks = list;
    // prom-client awaits a gauge's collect() before reading its values.
    (gauge as unknown as { collect: () => Promise<void> }).collect = async () => {
      await Promise.all(list.map((hook) => hook().catch(() => undefined)));
    };
  }
  hooks.push(collect);
}

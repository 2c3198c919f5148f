import { afterEach, describe, expect, it } from "vitest";
import type { DeliveredMessage, EventBus } from "./bus.js";
import { BusUnavailableError } from "./bus-unavailable-error.js";
import { createInProcessBus } from "./in-process-bus.js";
import { eventually } from "./test-support/eventually.js";

function message(eventId: string) {
  return { subject: "bayad.events.test.thing.created", eventId, payload: new TextEncoder().encode(eventId) };
}

function collector() {
  const seen: DeliveredMessage[] = [];
  return { seen, ids: () => seen.map((m) => m.eventId), handler: async (m: DeliveredMessage) => void seen.push(m) };
}

describe("createInProcessBus", () => {
  let bus: EventBus;
  afterEach(() => bus.close());

  it("drops a second publish of one eventId", async () => {
    bus = createInProcessBus();
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_2"));
    const c = collector();
    await bus.consume("records", c.handler);
    await eventually(() => expect(c.ids()).toEqual(["evt_1", "evt_2"]));
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_3"));
    await eventually(() => expect(c.ids()).toEqual(["evt_1", "evt_2", "evt_3"]));
  });

  it("lets an eventId through again once the duplicate window has passed", async () => {
    bus = createInProcessBus({ duplicateWindowMs: 0 });
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_1"));
    const c = collector();
    await bus.consume("records", c.handler);
    await eventually(() => expect(c.ids()).toEqual(["evt_1", "evt_1"]));
  });

  it("delivers to the first consumer what was published before it subscribed", async () => {
    bus = createInProcessBus();
    for (const id of ["a", "b", "c"]) await bus.publish(message(id));
    const c = collector();
    await bus.consume("records", c.handler);
    await eventually(() => expect(c.ids()).toEqual(["a", "b", "c"]));
    expect(c.seen.every((m) => !m.redelivered && m.subject === "bayad.events.test.thing.created")).toBe(true);
  });

  it("lets the event loop turn after every few messages a consumer handles", async () => {
    bus = createInProcessBus({ messagesPerTurn: 4 });
    const ids = Array.from({ length: 10 }, (_, i) => `evt_${i}`);
    for (const id of ids) await bus.publish(message(id));
    const c = collector();
    let handledBeforeTheTurn = -1;
    setImmediate(() => (handledBeforeTheTurn = c.seen.length));
    await bus.consume("records", c.handler);
    await eventually(() => expect(c.ids()).toEqual(ids));
    expect(handledBeforeTheTurn).toBe(4);
  });

  it("resumes a durable where it stopped, with what was published while it was stopped", async () => {
    bus = createInProcessBus();
    const first = collector();
    const consumption = await bus.consume("records", first.handler);
    await bus.publish(message("a"));
    await eventually(() => expect(first.ids()).toEqual(["a"]));
    await consumption.stop();

    await bus.publish(message("b"));
    await bus.publish(message("c"));
    expect(first.ids()).toEqual(["a"]);

    const second = collector();
    await bus.consume("records", second.handler);
    await eventually(() => expect(second.ids()).toEqual(["b", "c"]));
  });

  it("redelivers a message whose handler threw, marked redelivered, before any later one", async () => {
    bus = createInProcessBus({ redeliveryDelayMs: 10 });
    const deliveries: DeliveredMessage[] = [];
    let failuresLeft = 2;
    await bus.consume("records", async (m) => {
      deliveries.push(m);
      if (m.eventId === "b" && failuresLeft-- > 0) throw new Error("store down");
    });
    for (const id of ["a", "b", "c"]) await bus.publish(message(id));
    await eventually(() => expect(deliveries.map((m) => m.eventId)).toEqual(["a", "b", "b", "b", "c"]));
    expect(deliveries.map((m) => m.redelivered)).toEqual([false, false, true, true, false]);
  });

  it("redelivers after a restart a message whose handler failed before the stop", async () => {
    bus = createInProcessBus({ redeliveryDelayMs: 60_000 });
    let attempts = 0;
    const consumption = await bus.consume("records", async () => {
      attempts++;
      throw new Error("store down");
    });
    await bus.publish(message("a"));
    await eventually(() => attempts === 1);
    // The stop cuts the long redelivery pause short instead of waiting it out.
    await consumption.stop();
    const c = collector();
    await bus.consume("records", c.handler);
    await eventually(() => expect(c.seen.map((m) => [m.eventId, m.redelivered])).toEqual([["a", true]]));
  });

  it("gives each durable every message", async () => {
    bus = createInProcessBus();
    const records = collector();
    const audit = collector();
    await bus.consume("records", records.handler);
    await bus.publish(message("a"));
    await bus.consume("audit", audit.handler);
    await bus.publish(message("b"));
    await eventually(() => expect(records.ids()).toEqual(["a", "b"]));
    await eventually(() => expect(audit.ids()).toEqual(["a", "b"]));
  });

  it("keeps each durable's position right while passed messages are dropped", async () => {
    bus = createInProcessBus();
    const ids = Array.from({ length: 3000 }, (_, i) => `evt_${i}`);
    const fast = collector();
    const slow = collector();
    await bus.consume("fast", fast.handler);
    const slowConsumption = await bus.consume("slow", slow.handler);
    await slowConsumption.stop();
    for (const id of ids) await bus.publish(message(id));
    await eventually(() => expect(fast.ids()).toEqual(ids));
    await bus.consume("slow", slow.handler);
    await eventually(() => expect(slow.ids()).toEqual(ids));
    await bus.publish(message("last"));
    await eventually(() => expect(fast.ids().at(-1)).toBe("last"));
    await eventually(() => expect(slow.ids().at(-1)).toBe("last"));
  });

  it("waits in stop() for the handler in progress", async () => {
    bus = createInProcessBus();
    let release!: () => void;
    const finished: string[] = [];
    const consumption = await bus.consume("records", async (m) => {
      await new Promise<void>((resolve) => (release = resolve));
      finished.push(m.eventId);
    });
    await bus.publish(message("a"));
    await eventually(() => release !== undefined);
    const stopped = consumption.stop();
    release();
    await stopped;
    expect(finished).toEqual(["a"]);
  });

  it("refuses a second consumer on a durable that is consuming", async () => {
    bus = createInProcessBus();
    await bus.consume("records", async () => {});
    await expect(bus.consume("records", async () => {})).rejects.toThrow(/already consuming/);
  });

  it("reports connected until closed, and refuses publishes after", async () => {
    bus = createInProcessBus();
    expect(bus.isConnected()).toBe(true);
    await bus.close();
    expect(bus.isConnected()).toBe(false);
    await expect(bus.publish(message("a"))).rejects.toThrow(/closed/);
  });
});

describe("createInProcessBus consuming batches", () => {
  let bus: EventBus;
  afterEach(() => bus.close());

  /** A batch handler that keeps each batch's ids (with redelivered marks); while held, each batch waits to be let through. */
  function batchCollector() {
    const batches: Array<Array<[string, boolean]>> = [];
    const waiting: Array<() => void> = [];
    let holding = false;
    return {
      batches,
      ids: () => batches.map((batch) => batch.map(([id]) => id)),
      hold() {
        holding = true;
      },
      /** Lets the waiting batch through; later ones wait too. */
      next() {
        waiting.shift()?.();
      },
      release() {
        holding = false;
        for (const open of waiting.splice(0)) open();
      },
      handler: async (messages: readonly DeliveredMessage[]) => {
        batches.push(messages.map((m) => [m.eventId, m.redelivered]));
        if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
      },
    };
  }

  it("hands what was published before the consumer started over as one batch", async () => {
    bus = createInProcessBus();
    for (const id of ["a", "b", "c"]) await bus.publish(message(id));
    const c = batchCollector();
    await bus.consumeBatches("records", c.handler, { maxMessages: 64 });
    await eventually(() => expect(c.ids()).toEqual([["a", "b", "c"]]));
  });

  it("bounds a batch by maxMessages and never waits to fill one", async () => {
    bus = createInProcessBus();
    for (const id of ["a", "b", "c", "d", "e"]) await bus.publish(message(id));
    const c = batchCollector();
    await bus.consumeBatches("records", c.handler, { maxMessages: 2 });
    await eventually(() => expect(c.ids()).toEqual([["a", "b"], ["c", "d"], ["e"]]));
    await bus.publish(message("f"));
    await eventually(() => expect(c.ids()).toEqual([["a", "b"], ["c", "d"], ["e"], ["f"]]));
  });

  it("redelivers a failing batch whole, marked redelivered, before anything after it, and acknowledges none of it", async () => {
    bus = createInProcessBus({ redeliveryDelayMs: 10 });
    for (const id of ["a", "b"]) await bus.publish(message(id));
    const c = batchCollector();
    let failed = false;
    await bus.consumeBatches(
      "records",
      async (messages) => {
        if (failed) return c.handler(messages);
        failed = true;
        c.batches.push(messages.map((m) => [m.eventId, m.redelivered]));
        void bus.publish(message("c"));
        c.hold();
        throw new Error("store down");
      },
      { maxMessages: 64 },
    );
    // Held at the gate: the redelivered batch is in its handler, so nothing was acknowledged yet.
    await eventually(() => expect(c.batches).toHaveLength(2));
    expect(await bus.pending("records")).toBe(3);
    c.release();
    await eventually(async () => expect(await bus.pending("records")).toBe(0));
    expect(c.batches).toEqual([
      [
        ["a", false],
        ["b", false],
      ],
      [
        ["a", true],
        ["b", true],
        ["c", false],
      ],
    ]);
  });

  it("lets the event loop turn after the batch that reaches messagesPerTurn", async () => {
    bus = createInProcessBus({ messagesPerTurn: 4 });
    const ids = Array.from({ length: 10 }, (_, i) => `evt_${i}`);
    for (const id of ids) await bus.publish(message(id));
    const c = batchCollector();
    let batchesBeforeTheTurn = -1;
    setImmediate(() => (batchesBeforeTheTurn = c.batches.length));
    await bus.consumeBatches("records", c.handler, { maxMessages: 3 });
    await eventually(() => expect(c.ids().flat()).toEqual(ids));
    expect(batchesBeforeTheTurn).toBe(2);
  });

  it("refuses a batch bound below one", async () => {
    bus = createInProcessBus();
    await expect(bus.consumeBatches("records", async () => {}, { maxMessages: 0 })).rejects.toBeInstanceOf(RangeError);
  });

  it("resolves holding publishes once the batch that holds them is handled", async () => {
    bus = createInProcessBus({ holdingDurables: ["records"] });
    const c = batchCollector();
    c.hold();
    await bus.consumeBatches("records", c.handler, { maxMessages: 64 });
    const first = bus.publish(message("a"));
    await eventually(() => expect(c.ids()).toEqual([["a"]]));
    const later = [bus.publish(message("b")), bus.publish(message("c"))];
    c.next();
    await first;
    await eventually(() => expect(c.ids()).toEqual([["a"], ["b", "c"]]));
    // The batch holding b and c is in its handler: their publishers must keep their outbox copies.
    expect(await settledYet(Promise.race(later))).toBe(false);
    c.release();
    await Promise.all(later);
  });
});

/** Whether `promise` has settled after the handlers had every chance to run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("createInProcessBus with holding durables", () => {
  let bus: EventBus;
  afterEach(() => bus.close());

  it("resolves a publish only once the holding consumer has handled the message", async () => {
    bus = createInProcessBus({ holdingDurables: ["records"] });
    let release!: () => void;
    const handled: string[] = [];
    await bus.consume("records", async (m) => {
      await new Promise<void>((resolve) => (release = resolve));
      handled.push(m.eventId);
    });
    const published = bus.publish(message("a"));
    // The log is in memory: until the records consumer has written what the event means, the
    // publisher's outbox must keep it.
    expect(await settledYet(published)).toBe(false);
    release();
    await published;
    expect(handled).toEqual(["a"]);
  });

  it("refuses a publish while the holding consumer is not consuming, so the outbox keeps the event", async () => {
    bus = createInProcessBus({ holdingDurables: ["records"] });
    await expect(bus.publish(message("a"))).rejects.toBeInstanceOf(BusUnavailableError);
    const c = collector();
    const consumption = await bus.consume("records", c.handler);
    await bus.publish(message("a"));
    expect(c.ids()).toEqual(["a"]);
    await consumption.stop();
    await expect(bus.publish(message("b"))).rejects.toBeInstanceOf(BusUnavailableError);
  });

  it("fails a waiting publish when the holding consumer stops before handling it, and a publish again waits for the handling", async () => {
    bus = createInProcessBus({ holdingDurables: ["records"], redeliveryDelayMs: 60_000 });
    const failing = await bus.consume("records", async () => {
      throw new Error("store down");
    });
    const first = bus.publish(message("a"));
    expect(await settledYet(first)).toBe(false);
    await failing.stop();
    await expect(first).rejects.toBeInstanceOf(BusUnavailableError);

    // The duplicate check knows "a", but nothing has handled it yet: a second publish waits too.
    let release!: () => void;
    const c = collector();
    await bus.consume("records", async (m) => {
      await new Promise<void>((resolve) => (release = resolve));
      await c.handler(m);
    });
    const again = bus.publish(message("a"));
    expect(await settledYet(again)).toBe(false);
    release();
    await again;
    expect(c.ids()).toEqual(["a"]);
  });

  it("does not wait for other consumers", async () => {
    bus = createInProcessBus({ holdingDurables: ["records"] });
    await bus.consume("records", collector().handler);
    let release!: () => void;
    await bus.consume("capture", () => new Promise<void>((resolve) => (release = resolve)));
    await bus.publish(message("a"));
    release();
  });
});

import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { tallyDeliveries } from "./webhook-deliveries.js";
import type { ReceivedWebhook } from "./webhook-receiver-process.js";

const secret = `whsec_${Buffer.from("bayad-bench-test-secret-0123456789").toString("base64")}`;
const createdAt = Date.parse("2026-11-28T08:00:00.000Z");

/** A delivery of `checkoutId`'s event as the platform signs it, arriving `afterMs` after the change. */
function delivery(eventId: string, checkoutId: string, afterMs: number, options: { type?: string; key?: string } = {}): ReceivedWebhook {
  const body = JSON.stringify({ id: eventId, type: options.type ?? "checkout.paid", createdAt: new Date(createdAt).toISOString(), environment: "test", data: { checkoutId, status: "paid" } });
  const now = new Date();
  return {
    webhookId: eventId,
    webhookTimestamp: String(Math.floor(now.getTime() / 1000)),
    webhookSignature: new Webhook(options.key ?? secret).sign(eventId, now, body),
    body,
    receivedAt: createdAt + afterMs,
  };
}

describe("tallyDeliveries", () => {
  it("times each paid checkout's first signed delivery from its event's createdAt", () => {
    const received = [delivery("evt_1", "chk_1", 30), delivery("evt_2", "chk_2", 10), delivery("evt_3", "chk_3", 20)];
    const tally = tallyDeliveries(new Set(["chk_1", "chk_2", "chk_3"]), received, secret);
    expect(tally).toMatchObject({ delivered: 3, missing: 0, unverified: 0, duplicates: 0, unexpected: 0 });
    expect(tally.latencyMs).toMatchObject({ p50: 20, p99: 30, max: 30 });
  });

  it("counts a repeated delivery once, keeping the first arrival's time", () => {
    const tally = tallyDeliveries(new Set(["chk_1"]), [delivery("evt_1", "chk_1", 15), delivery("evt_1", "chk_1", 5_000)], secret);
    expect(tally).toMatchObject({ delivered: 1, duplicates: 1 });
    expect(tally.latencyMs.max).toBe(15);
  });

  it("does not count a delivery whose signature fails, nor one about a checkout no probe paid", () => {
    const forged = delivery("evt_1", "chk_1", 10, { key: `whsec_${Buffer.from("someone-else-entirely-0123456789").toString("base64")}` });
    const tampered = { ...delivery("evt_2", "chk_2", 10), body: delivery("evt_2", "chk_9", 10).body };
    const stranger = delivery("evt_3", "chk_other", 10);
    const otherType = delivery("evt_4", "chk_3", 10, { type: "checkout.cancelled" });
    const tally = tallyDeliveries(new Set(["chk_1", "chk_2", "chk_3"]), [forged, tampered, stranger, otherType], secret);
    expect(tally).toMatchObject({ delivered: 0, missing: 3, unverified: 2, unexpected: 2 });
    expect(Number.isNaN(tally.latencyMs.p99)).toBe(true);
  });
});

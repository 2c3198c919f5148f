import { describe, expect, it } from "vitest";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { EventSchema, RefundStatus } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider } from "@bayad/provider";
import { createPaymentLinksRepository } from "./payment-links-repository.js";
import { createPaymentLink, getPaymentLink, simulatePaymentLinkPayment, type PaymentLinksDeps } from "./payment-links.js";
import { paymentLinkToProto } from "./payment-link.js";
import { linkRefundOf, linkRefundsMessageHandler } from "../refunds-consumer.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const caller = () => ({ projectId: "prj_a", environment: "test" as const, correlationId: "c", idempotencyKey: `link-refund-key-${String(++keys).padStart(8, "0")}` });

async function paidLink() {
  const store = createTestStore();
  const deps: PaymentLinksDeps = {
    store,
    repository: createPaymentLinksRepository(store),
    outbox: createOutbox(store, "links"),
    providers: { test: createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }) },
    now: () => new Date(),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const link = await createPaymentLink(deps, caller(), { referenceId: "r-1", amountMinor: 300_00, description: "Class", remarks: "", metadata: {} });
  await simulatePaymentLinkPayment(deps, caller(), link._id, "pay");
  return { store, deps, linkId: link._id };
}

const refundEvent = (linkId: string, refundId: string, amountMinor: number, status = RefundStatus.SUCCEEDED, projectId = "prj_a") =>
  create(EventSchema, {
    eventId: `evt_${refundId}_${status}`,
    type: "payments.refund.succeeded",
    projectId,
    environment: "test",
    resourceId: refundId,
    snapshot: { case: "refund", value: { refundId, paymentId: linkId, status, amount: { amountMinor: BigInt(amountMinor), currency: "PHP" } } },
  });

describe("link refunds", () => {
  it("announces the sandbox payment of a paid link, which refunds draw on", async () => {
    const { deps, linkId } = await paidLink();
    const proto = paymentLinkToProto(await getPaymentLink(deps, caller(), linkId));
    expect(proto.providerPayment?.paidAt).toBeDefined();
    expect(proto.providerPayment?.providerPaymentId).toBe("");
  });

  it("records each succeeded refund once, on the link that stays paid, with an event", async () => {
    const { store, deps, linkId } = await paidLink();
    const handle = linkRefundsMessageHandler({ paymentLinks: deps, logger: createLogger("test", "silent") });
    const deliver = (event: ReturnType<typeof refundEvent>) =>
      handle({ subject: `bayad.events.${event.type}`, eventId: event.eventId, payload: toBinary(EventSchema, event), redelivered: false });

    await deliver(refundEvent(linkId, "ref_1", 100_00));
    await deliver(refundEvent(linkId, "ref_1", 100_00));
    await deliver(refundEvent(linkId, "ref_2", 50_00, RefundStatus.PENDING));
    await deliver(refundEvent(linkId, "ref_3", 50_00, RefundStatus.SUCCEEDED, "prj_other"));
    const link = await getPaymentLink(deps, caller(), linkId);
    expect(link.status).toBe("paid");
    expect(paymentLinkToProto(link).refundedAmount?.amountMinor).toBe(100_00n);

    await deliver(refundEvent(linkId, "ref_4", 200_00));
    expect(paymentLinkToProto(await getPaymentLink(deps, caller(), linkId)).refundedAmount?.amountMinor).toBe(300_00n);
    const subjects = (await store.collection<OutboxRecord>(outboxCollection).find({ resourceId: linkId }, { sort: { aggregateVersion: 1 } })).map((e) => e.subject);
    expect(subjects.filter((subject) => subject.endsWith("payment_link.refunded"))).toHaveLength(2);
    const last = (await store.collection<OutboxRecord>(outboxCollection).find({ resourceId: linkId }, { sort: { aggregateVersion: -1 }, limit: 1 }))[0]!;
    const event = fromBinary(EventSchema, Buffer.from(last.payload, "base64"));
    expect(event.snapshot.case === "paymentLink" && event.snapshot.value.refundedAmount?.amountMinor).toBe(300_00n);
  });

  it("reads only succeeded refunds of links", () => {
    expect(linkRefundOf(refundEvent("link_x", "ref_1", 1_00))).toMatchObject({ linkId: "link_x", refundId: "ref_1", amountMinor: 1_00 });
    expect(linkRefundOf(refundEvent("chk_x", "ref_1", 1_00))).toBeNull();
    expect(linkRefundOf(refundEvent("link_x", "ref_1", 1_00, RefundStatus.FAILED))).toBeNull();
  });
});
